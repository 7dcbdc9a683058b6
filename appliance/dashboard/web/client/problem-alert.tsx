/** A problem said in words where it happened, announced to screen readers; nothing while there is none. */
export function ProblemAlert({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p class="error-text" role="alert">
      {message}
    </p>
  );
}
