/**
 * Files the person picked or dropped, before they go to main: File objects (a file input, a drop;
 * staged through the bridge on submit) or paths (Electron's native open dialog). Folders dropped
 * in the page are walked with webkitGetAsEntry, keeping what looks like media.
 */
export type Picked = { kind: 'file'; file: File; name: string; size: number } | { kind: 'path'; path: string; name: string; size: null };

export function pickedFromFile(file: File): Picked {
  return { kind: 'file', file, name: file.name, size: file.size };
}

export function pickedFromPath(path: string): Picked {
  return { kind: 'path', path, name: path.split(/[\\/]/).pop() || path, size: null };
}

export function pickedKey(p: Picked): string {
  return p.kind === 'path' ? `path:${p.path}` : `file:${p.name}:${p.size}:${p.file.lastModified}`;
}

const MEDIA_EXTENSIONS = /\.(wav|mp3|m4a|aac|flac|ogg|oga|opus|wma|aif|aiff|amr|mp4|m4v|mov|mkv|webm|avi|wmv|mpg|mpeg|mts|m2ts|3gp|ts)$/i;

/** Whether a file found inside a dropped folder is worth offering (a single dropped file always is: main says why it refuses). */
export function looksLikeMedia(file: File): boolean {
  return file.type.startsWith('audio/') || file.type.startsWith('video/') || MEDIA_EXTENSIONS.test(file.name);
}

/** What a drop brought: files, and how many files inside dropped folders were left out as not media. */
export interface Dropped {
  files: File[];
  leftOut: number;
}

/**
 * Reads a drop's files and folders. Must be called inside the drop handler: the entries are
 * taken synchronously (the DataTransfer empties once the event is over), then read.
 */
export function readDrop(dt: DataTransfer): Promise<Dropped> {
  const entries: FileSystemEntry[] = [];
  const plain: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) plain.push(f);
    }
  }
  // A synthetic DataTransfer (and some platforms) has files but no entries.
  if (entries.length === 0 && plain.length === 0) plain.push(...Array.from(dt.files ?? []));
  return (async () => {
    const out: Dropped = { files: [...plain], leftOut: 0 };
    for (const entry of entries) {
      if (entry.isFile) out.files.push(await fileOf(entry as FileSystemFileEntry));
      else if (entry.isDirectory) await walk(entry as FileSystemDirectoryEntry, out);
    }
    return out;
  })();
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(dir: FileSystemDirectoryEntry, out: Dropped): Promise<void> {
  const reader = dir.createReader();
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const entry of batch) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory) await walk(entry as FileSystemDirectoryEntry, out);
      else if (entry.isFile) {
        const file = await fileOf(entry as FileSystemFileEntry);
        if (looksLikeMedia(file)) out.files.push(file);
        else out.leftOut++;
      }
    }
  }
}
