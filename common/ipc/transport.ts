/** Electron IPC channel names shared by the preload and main's Electron transport, and the web bridge's message shapes. */
export const INVOKE_CHANNEL = 's2t:invoke';
export const eventChannel = (event: string) => `s2t:event:${event}`;

/** Web bridge frames (JSON over one WebSocket). */
export type BridgeRequest = { id: number; channel: string; args: unknown };
export type BridgeFrame = { id: number; reply: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } } } | { event: string; payload: unknown };
/** The WebSocket path of the web bridge; a page's session (common/ipc/admission.ts) travels as the subprotocol `s2t.<session>`. */
export const BRIDGE_PATH = '/bridge';
export const TOKEN_PROTOCOL_PREFIX = 's2t.';
