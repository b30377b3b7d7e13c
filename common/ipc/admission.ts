/**
 * Browser mode's admission: the printed address carries a one-time ticket in its fragment; the page
 * POSTs it once to ADMIT_PATH in ADMIT_TICKET_HEADER and gets this tab's session (AdmitAnswer),
 * which it then presents as the WebSocket subprotocol (TOKEN_PROTOCOL_PREFIX) and to the stage
 * route. A spent ticket admits no one.
 */
import { z } from 'zod';

export const ADMIT_PATH = '/admit';
export const ADMIT_TICKET_HEADER = 'x-s2t-ticket';
export const AdmitAnswer = z.object({ session: z.string().regex(/^[\w-]{20,64}$/) });
/** What a refused page tells the person (the bridge answers it with 401). */
export const ADMIT_REFUSED = 'This address has been used already: each address printed by S2T Desktop opens the app in one browser once. Press Enter in the terminal where S2T Desktop runs to print a fresh one.';
