import { useId } from 'react';
import type { ThemeChoice } from '../../../common/ipc';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Appearance: light, dark, or whatever the system uses. */
export function ThemePicker({ value, onChange }: { value: ThemeChoice; onChange: (choice: ThemeChoice) => void }) {
  const id = useId();
  return (
    <span className="theme-picker">
      <label htmlFor={id}>Theme</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as ThemeChoice)}>
        {(Object.keys(LABELS) as ThemeChoice[]).map((k) => (
          <option key={k} value={k}>
            {LABELS[k]}
          </option>
        ))}
      </select>
    </span>
  );
}
