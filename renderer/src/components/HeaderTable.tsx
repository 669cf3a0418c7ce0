/**
 * HTTP headers as a name/value table (requests, responses, webhook attempts, inboxes, webhook
 * settings); values are text nodes, whatever a client or receiver sent.
 */
export function HeaderTable({ headers, label }: { headers: Record<string, string>; label: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p class="muted small">No headers.</p>;
  return (
    <table class="grid mono small headers" aria-label={label}>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
