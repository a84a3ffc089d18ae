export function ErrorNote({ error }: { error: Error | null }) {
  if (error === null) return null;
  return (
    <p role="alert" class="error">
      {error.message}
    </p>
  );
}
