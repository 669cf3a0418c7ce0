/**
 * The list filters' drop-downs (Requests, Webhooks, Jobs): "Any …" first, then the choices; the
 * label names the control for screen readers and tests.
 */
import { organizations } from '../state/live.js';

export interface Choice {
  value: string;
  label: string;
}

interface Props {
  label: string;
  /** What the empty choice says, e.g. "Any status". */
  noFilterLabel: string;
  value: string;
  choices: readonly (string | Choice)[];
  onChange: (value: string) => void;
}

export function FilterSelect({ label, noFilterLabel, value, choices, onChange }: Props) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">{noFilterLabel}</option>
      {choices.map((c) => {
        const { value: v, label: text } = typeof c === 'string' ? { value: c, label: c } : c;
        return (
          <option key={v} value={v}>
            {text}
          </option>
        );
      })}
    </select>
  );
}

/** The organization filter: every organization of the data file, by name. */
export function OrganizationSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <FilterSelect
      label="Organization"
      noFilterLabel="Any organization"
      value={value}
      choices={organizations.value.map((o) => ({ value: o.slug, label: o.name }))}
      onChange={onChange}
    />
  );
}
