export function StatusBadge(props: { status: string; testId?: string }) {
  return (
    <span class={`badge badge-${props.status}`} data-testid={props.testId}>
      {props.status}
    </span>
  );
}
