import t from 'tap';
import { startIcefront } from '../src/main.js';
import { createLogger } from '../src/observability/index.js';
import { authConfig, configWith } from './helpers/auth-config.js';
import { logLines } from './helpers/log-lines.js';
import { demoCatalog } from './service/planning/helpers.js';

t.test('start-up logs a warning when authentication is off, and how it is on otherwise', async (t) => {
  for (const auth of [undefined, authConfig()]) {
    const { lines, destination } = logLines();
    const running = await startIcefront(configWith([demoCatalog('demo')], auth), { logger: createLogger({ level: 'info', destination }), port: 0 });
    await running.close();
    const said = lines.filter((l) => String(l.msg).startsWith('Authentication is'));
    t.equal(said.length, 1);
    t.equal(said[0]!.level, auth ? 30 : 40, auth ? 'info' : 'warn');
    t.match(String(said[0]!.msg), auth ? /^Authentication is on/ : /^Authentication is OFF .*every caller/);
  }
});
