/**
 * Who may use the web bridge: one-time tickets (each printed address carries one) that a page
 * exchanges once for a session of its own. The session, not the ticket, opens the WebSocket and
 * the stage route, so a printed address that leaked after its first use admits no one.
 * Both are bounded: the oldest unused ticket and the oldest session give way to new ones.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Addresses printed and not yet opened that stay valid (pressing Enter repeatedly mints more). */
const MAX_OPEN_TICKETS = 16;
/** Browser tabs admitted at once; far more than a person opens on one computer. */
const MAX_SESSIONS = 64;

const newSecret = () => randomBytes(24).toString('base64url');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The first of `items` equal to `presented`, compared in constant time per item. */
function findSecret(items: Iterable<string>, presented: string): string | undefined {
  let found: string | undefined;
  for (const item of items) if (sameSecret(item, presented)) found = item;
  return found;
}

export interface Admission {
  /** A fresh one-time ticket. */
  newTicket(): string;
  /** Spends a ticket: a new session, or null when the ticket is unknown or spent. */
  admit(ticket: string): string | null;
  sessionOk(presented: string): boolean;
}

export function createAdmission(): Admission {
  const tickets = new Set<string>();
  const sessions = new Set<string>();
  const bounded = (set: Set<string>, max: number, item: string) => {
    set.add(item);
    for (const oldest of set) {
      if (set.size <= max) break;
      set.delete(oldest);
    }
  };
  return {
    newTicket() {
      const ticket = newSecret();
      bounded(tickets, MAX_OPEN_TICKETS, ticket);
      return ticket;
    },
    admit(presented) {
      const ticket = findSecret(tickets, presented);
      if (!ticket) return null;
      tickets.delete(ticket);
      const session = newSecret();
      bounded(sessions, MAX_SESSIONS, session);
      return session;
    },
    sessionOk: (presented) => findSecret(sessions, presented) !== undefined,
  };
}
