/** A small table of named rows (the explanation's breakdowns): the first column names each row. */
export interface BreakdownRow {
  readonly name: string;
  readonly cells: readonly string[];
}

export function BreakdownTable(props: { caption: string; columns: readonly string[]; rows: readonly BreakdownRow[] }) {
  return (
    <table class="breakdown">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">{r.name}</th>
            {r.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
