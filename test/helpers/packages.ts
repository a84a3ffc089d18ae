// The npm packages a list of module files belongs to (`@scope/name` or `name`; a nested
// package by its own name), sorted, once each.
export function packagesOf(files: readonly string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const parts = file.split(/[\\/]node_modules[\\/]/);
    if (parts.length < 2) continue;
    const path = parts.at(-1)!.split(/[\\/]/);
    names.add(path[0]!.startsWith('@') ? `${path[0]}/${path[1]}` : path[0]!);
  }
  return [...names].sort();
}
