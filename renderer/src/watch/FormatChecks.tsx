import { ExportFormat } from '../../../common/api';

const FORMATS = ExportFormat.options;

/** The files to write, one checkbox per export format; the answer keeps the formats' own order. */
export function FormatChecks({ chosen, onChange }: { chosen: readonly ExportFormat[]; onChange: (formats: ExportFormat[]) => void }) {
  const toggle = (f: ExportFormat) => onChange(FORMATS.filter((x) => (x === f ? !chosen.includes(f) : chosen.includes(x))));
  return (
    <fieldset className="formats">
      <legend>Write</legend>
      {FORMATS.map((f) => (
        <label key={f} className="check">
          <input type="checkbox" checked={chosen.includes(f)} onChange={() => toggle(f)} /> {f.toUpperCase()}
        </label>
      ))}
    </fieldset>
  );
}
