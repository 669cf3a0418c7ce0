/** Field values as a table of label and value, in the order of their definitions. */
import type { FieldDef } from '../../api/types.js';
import { labelOf, rowsOf, type Values } from './fields.js';
import { FieldValue, type FieldContext } from './FieldValue.js';

export function FieldTable({ defs, values, ctx, nested }: { defs: FieldDef[]; values: Values; ctx: FieldContext; nested?: boolean }) {
  const rows = rowsOf(defs, values);
  if (rows.length === 0) return <p class="muted small">No fields.</p>;
  return (
    <table class={nested ? 'fields nested' : 'fields'}>
      <tbody>
        {rows.map(({ key, def }) => (
          <tr key={key}>
            <th scope="row">
              {labelOf(key, def)}
              {def && !nested && <span class="field-type">{def.type}</span>}
            </th>
            <td>
              <FieldValue value={values[key]} def={def} ctx={ctx} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
