/** The <option>s of a <select> over named things (printers, profiles, locations): the value is the id, the text the name. */
export function Options({ items }: { items: readonly { id: string | number; name: string }[] }) {
  return (
    <>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}
