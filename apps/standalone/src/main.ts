import 'reflect-metadata';
import { loadConfig } from '#libs/config';
import { createDataDir } from '#libs/database/embedded';

// `npm start`. A first start creates its embedded database (initdb: seconds, in a child process); begun before the
// gateway's modules load (seconds too), it runs on another core meanwhile. A bad configuration is the gateway's to
// report, one line per problem: here it only means no early start.
const config = (() => {
  try {
    return loadConfig();
  } catch {
    return undefined;
  }
})();
if (config?.embeddedDatabase) void createDataDir(config.dataDir);
await import('./gateway-main.js');
