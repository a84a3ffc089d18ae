// The parts every table of the dashboard shares: a header row of column headers (numeric ones
// right-aligned like their cells) and the row that says the table is empty.
import type { ComponentChildren } from 'preact';

export interface Column {
  label: ComponentChildren;
  numeric?: boolean;
  /** Read by screen readers only (a column of buttons). */
  hidden?: boolean;
}

export const num = (label: string): Column => ({ label, numeric: true });

export function TableHead({ columns }: { columns: Array<Column | string> }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => {
          const column = typeof c === 'string' ? { label: c } : c;
          return (
            <th scope="col" class={column.numeric ? 'num' : undefined}>
              {column.hidden ? <span class="sr-only">{column.label}</span> : column.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

export function EmptyRow({ span, children }: { span: number; children: ComponentChildren }) {
  return (
    <tr>
      <td colSpan={span}>{children}</td>
    </tr>
  );
}
