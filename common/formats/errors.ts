/** Errors from the readers and writers: always say where (line or byte offset) and in what format. */
export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    readonly format: string,
    message: string,
    readonly where: { line?: number; byteOffset?: number } = {},
  ) {
    super(
      `${format.toUpperCase()}: ${message}` +
        (where.line !== undefined ? ` (line ${where.line})` : '') +
        (where.byteOffset !== undefined ? ` (byte offset ${where.byteOffset})` : ''),
    );
  }
  get line(): number | undefined {
    return this.where.line;
  }
  get byteOffset(): number | undefined {
    return this.where.byteOffset;
  }
}
