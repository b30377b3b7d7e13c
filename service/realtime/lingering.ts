/**
 * Which stream sessions have a socket now, and which wait for their client to come back: a socket
 * that drops without stop leaves its session open for a while (the app reconnects and resumes it);
 * when no one comes back, the session is finished with what it has.
 */
import type { ServiceContext } from '../context';
import { finishLiveSession } from './finish';

export class LiveSessions {
  private readonly active = new Set<string>();
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(private readonly ctx: ServiceContext, private readonly lingerMs: number) {}

  /**
   * Takes the session for a socket; false when another socket still has it after a minute. A
   * dropped socket holds it until the recogniser has finished the audio it received (on a busy
   * machine, a while behind a fast stream), so its finals are complete before the resume goes on.
   */
  async claim(sessionId: string): Promise<boolean> {
    for (let i = 0; i < 600 && this.active.has(sessionId); i++) await new Promise((r) => setTimeout(r, 100));
    if (this.active.has(sessionId)) return false;
    const t = this.waiting.get(sessionId);
    if (t) clearTimeout(t);
    this.waiting.delete(sessionId);
    this.active.add(sessionId);
    return true;
  }

  /** The socket is gone: finish now (stop, a limit), or wait for a resume first. */
  release(sessionId: string, how: 'finish' | 'linger', finalsComplete = true): void {
    this.active.delete(sessionId);
    if (how === 'finish') return this.finish(sessionId, finalsComplete);
    this.wait(sessionId, finalsComplete);
  }

  /** A session whose socket was lost to a stop of the service: its client has a while to resume it. */
  wait(sessionId: string, finalsComplete: boolean): void {
    const t = setTimeout(() => {
      this.waiting.delete(sessionId);
      this.finish(sessionId, finalsComplete);
    }, this.lingerMs);
    t.unref();
    this.waiting.set(sessionId, t);
  }

  private finish(sessionId: string, finalsComplete: boolean): void {
    try {
      finishLiveSession(this.ctx, sessionId, finalsComplete);
    } catch (e) {
      this.ctx.log.error('live session could not be finished', { session_id: sessionId, error: (e as Error).message });
    }
  }

  /** The service stops: waiting sessions stay as they are and are taken up again at the next start. */
  stop(): void {
    for (const t of this.waiting.values()) clearTimeout(t);
    this.waiting.clear();
  }
}
