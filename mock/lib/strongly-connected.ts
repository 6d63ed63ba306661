// Tarjan's strongly connected components, without recursion (a contract's chains of schemas can be long).

/**
 * Numbers the strongly connected components of a graph: two nodes get one number exactly when each leads
 * to the other. Numbers follow Tarjan's order: a component's successors have smaller numbers.
 * @example componentsOf(['a', 'b', 'c'], (n) => ({ a: ['b'], b: ['a'], c: [] })[n]) // a, b → 1; c → 0 (or the reverse)
 */
export function componentsOf<T>(nodes: Iterable<T>, next: (node: T) => readonly T[]): Map<T, number> {
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const component = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  let counter = 0;
  let components = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const frames: Array<{ node: T; edges: readonly T[]; at: number }> = [];
    const open = (node: T) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      frames.push({ node, edges: next(node), at: 0 });
    };
    open(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++]!;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      let member: T;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.set(member, components);
      } while (member !== frame.node);
      components++;
    }
  }
  return component;
}
