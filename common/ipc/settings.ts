/**
 * The app's settings as the renderer sees them: one zod schema, the current version of the
 * stored shape (main/settings.ts migrates older files up to it). Secrets never live here.
 * `settings.set` takes a partial: each key present replaces that key whole (objects included).
 */
import { z } from 'zod';
import { CAPTION_PROFILES, DEFAULT_CAPTION_PROFILE, type CaptionProfileId } from '../transcript/captions';
import { TranscriptionOptions } from './imports';

export const ThemeChoice = z.enum(['light', 'dark', 'system']);
export type ThemeChoice = z.infer<typeof ThemeChoice>;

/** What the native open dialog is for; each remembers its own last folder. */
export const OpenPurpose = z.enum(['media', 'folder', 'text', 'captions']);
export type OpenPurpose = z.infer<typeof OpenPurpose>;
/** What the native save dialog is for. */
export const SavePurpose = z.enum(['export']);
export type SavePurpose = z.infer<typeof SavePurpose>;
export const DialogPurpose = z.enum([...OpenPurpose.options, ...SavePurpose.options]);
export type DialogPurpose = z.infer<typeof DialogPurpose>;

/** New-transcription defaults: the dialog's options without the per-file companion. */
export const TranscriptionDefaults = TranscriptionOptions.omit({ companion: true });
export type TranscriptionDefaults = z.output<typeof TranscriptionDefaults>;

const captionProfileIds = Object.keys(CAPTION_PROFILES) as [CaptionProfileId, ...CaptionProfileId[]];
export const CaptionProfileChoice = z.enum(captionProfileIds);

export const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;

/** The window's place on screen, in the screen's points (main clamps it to a visible display). */
export const WindowBounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(100_000),
  height: z.number().int().min(150).max(100_000),
  maximized: z.boolean().default(false),
});
export type WindowBounds = z.output<typeof WindowBounds>;

const AbsolutePath = z.string().min(1).max(4096);

export const Settings = z.object({
  /** A cloud account's base URL; null: the embedded local service. */
  serviceUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().default(null),
  theme: ThemeChoice.default('system'),
  transcription: TranscriptionDefaults.default(TranscriptionDefaults.parse({ language: 'en-US' })),
  /** Where exports go first; null: the dialog's own default (Downloads in browser mode). */
  exportFolder: AbsolutePath.nullable().default(null),
  /** How much played media is kept on disk, in bytes. */
  mediaCacheBytes: z.number().int().min(0).max(1024 * GIB).default(2 * GIB),
  captionProfile: CaptionProfileChoice.default(DEFAULT_CAPTION_PROFILE),
  /** Words recognised with less confidence than this are marked for checking (0..1). */
  lowConfidenceThreshold: z.number().min(0).max(1).default(0.5),
  /** The last folder each dialog purpose was used in. */
  lastFolders: z.partialRecord(DialogPurpose, AbsolutePath).default({}),
  /** A cloud account's realtime address (ws: or wss:), by the account's service URL; absent: the service's own /api/v3/realtime. */
  realtimeUrls: z
    .record(z.string().max(2048), z.url({ protocol: /^wss?$/ }).max(2048))
    .refine((r) => Object.keys(r).length <= 50, 'at most 50 realtime addresses')
    .default({}),
  /** The main window's last bounds (Electron); null: the default size, centred. */
  window: WindowBounds.nullable().default(null),
});
export type Settings = z.output<typeof Settings>;
export const DEFAULT_SETTINGS: Settings = Settings.parse({});

type SettingsShape = typeof Settings.shape;
/**
 * A change: any keys of Settings, each validated whole. Built from the fields without their
 * defaults: zod 4 applies a default inside .partial(), which would reset every key left out.
 */
export const SettingsPatch = z
  .object(Object.fromEntries(Object.entries(Settings.shape).map(([k, v]) => [k, v.unwrap().optional()])) as { [K in keyof SettingsShape]: z.ZodOptional<ReturnType<SettingsShape[K]['unwrap']>> })
  .strict();
export type SettingsPatch = z.input<typeof SettingsPatch>;

export const settingsChannels = {
  'settings.get': { args: z.object({}), result: Settings },
  /** Refused with the reason (field: message) when a value fails the schema; nothing is written then. */
  'settings.set': { args: SettingsPatch, result: Settings },
} as const;

export type SettingsChannelName = keyof typeof settingsChannels;

export const settingsEvents = {
  /** Every change, from any window or from main itself (a remembered folder, window bounds). */
  'settings.changed': Settings,
} as const;
