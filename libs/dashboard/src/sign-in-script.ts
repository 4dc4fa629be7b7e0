/**
 * The sign-in page's script, served as /admin/sign-in.js so that the page's CSP allows no inline script. It reads
 * where to go from the form's data-next attribute, which the server checked and escaped; nothing else is reflected.
 */
export const SIGN_IN_SCRIPT = `'use strict';
const form = document.getElementById('sign-in');
const error = document.getElementById('error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: document.getElementById('token').value }),
  });
  if (res.ok) location.assign(form.dataset.next);
  else if (res.status === 429) error.textContent = 'Too many wrong tokens: try again in ' + res.headers.get('retry-after') + ' s.';
  else error.textContent = 'That is not the admin token.';
});
`;
