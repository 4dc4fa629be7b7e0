import { useEffect, useState } from 'preact/hooks';

/** Where the console is: the hash's path (`/logs/<id>`) and its query (filters), so that a view can be linked. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

function current(): Route {
  const hash = location.hash.replace(/^#/, '');
  const at = hash.indexOf('?');
  const path = (at < 0 ? hash : hash.slice(0, at)) || '/';
  return { path, query: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1)) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const changed = () => setRoute(current());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** A link's href: `#<path>?<query>`, empty values left out. */
export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export const logHref = (id: string): string => href(`/logs/${encodeURIComponent(id)}`);

export function navigate(path: string, query: Record<string, string | undefined> = {}): void {
  location.hash = href(path, query);
}
