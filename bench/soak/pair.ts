/**
 * Two Icefronts on one config, as operators run a pair (docs/deployment.md): Debian's nginx in
 * front, round robin, with the deployment doc's blocks (test/interop/harness/nginx.ts: a request
 * moves to the other replica only while it could not be sent; `/tasks` may be resent). Both
 * replicas share the `fs` warehouse, the `pg` database and the plan-task secret, so a plan one
 * hands out is redeemed at the other and their commits race for the same tables.
 *
 * `a` is the replica the bench samples (memory, event loop: samples.ts); `b` is the one the
 * fault schedule kills with SIGKILL (nothing flushed, nothing closed) and starts again on its
 * port, the way a supervisor would. What was in flight on `b` when it died reaches clients as
 * nginx's own 502, or as a body cut short; judge.ts tells those apart by the replica nginx names.
 */
import { startNginxBalancer, type NginxBalancer } from '../../test/interop/harness/nginx.js';
import { startSoakIcefront, type SoakIcefront } from './process.js';

/** How long `b` stays dead: long enough for nginx to send traffic its way and find it gone. */
export const KILLED_MS = 5000;
const READY_WITHIN_MS = 30_000;

export class IcefrontPair {
  private restarting = false;
  /** Kills of `b`, and how long each restart took until its own /readyz answered ready. */
  readonly restarts: { killedAt: number; readyAfterMs: number | undefined }[] = [];

  private constructor(
    readonly a: SoakIcefront,
    private current: SoakIcefront,
    readonly balancer: NginxBalancer,
    private readonly configFile: string,
    private readonly dist: string,
  ) {}

  static async start(configFile: string, dist: string): Promise<IcefrontPair> {
    const a = await startSoakIcefront(configFile, dist);
    const b = await startSoakIcefront(configFile, dist).catch(async (err: unknown) => {
      await a.close();
      throw err;
    });
    const balancer = await startNginxBalancer([portOf(a), portOf(b)], { resendTasks: true }).catch(async (err: unknown) => {
      await Promise.all([a.close(), b.close()]);
      throw err;
    });
    return new IcefrontPair(a, b, balancer, configFile, dist);
  }

  /** Where clients go: the balancer. */
  get url(): string {
    return this.balancer.url;
  }

  /** `b`'s address as nginx names it in X-Upstream-Addr (its port does not change across restarts). */
  get bAddress(): string {
    return new URL(this.current.url).host;
  }

  get b(): SoakIcefront {
    return this.current;
  }

  /** Both replicas up (`b` may be down only while the schedule restarts it). */
  isAlive(): boolean {
    return this.a.isAlive() && (this.restarting || this.current.isAlive());
  }

  signal(signal: NodeJS.Signals): void {
    this.a.signal(signal);
    this.current.signal(signal);
  }

  /** SIGKILL to `b`, `KILLED_MS` of nothing, then `b` again on its port; resolves once its own /readyz is ready (or after 30 s). */
  async killAndRestartB(): Promise<void> {
    const port = portOf(this.current);
    this.restarting = true;
    const killedAt = Date.now();
    try {
      this.current.signal('SIGKILL');
      await this.current.exited;
      await this.current.close();
      await new Promise((r) => setTimeout(r, KILLED_MS));
      this.current = await startSoakIcefront(this.configFile, this.dist, port);
    } finally {
      this.restarting = false;
    }
    const started = Date.now();
    let readyAfterMs: number | undefined;
    while (Date.now() - started < READY_WITHIN_MS) {
      const status = await fetch(`${this.current.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then(async (res) => (await res.arrayBuffer(), res.status), () => 0);
      if (status === 200) {
        readyAfterMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    this.restarts.push({ killedAt, readyAfterMs });
  }

  async close(): Promise<void> {
    await this.balancer.close();
    await Promise.all([this.a.close(), this.current.close()]);
  }
}

const portOf = (icefront: SoakIcefront) => Number(new URL(icefront.url).port);
