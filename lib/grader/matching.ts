// Maximum bipartite matching with vertex multiplicities.
//
// The trajectory graph groups identical calls into classes: every expected call of a class has
// the same neighbours, and so has every observed call of a class. A maximum matching of the full
// graph then has the size of a maximum flow source → expected class (capacity = its size) →
// observed class (edge when compatible) → sink (capacity = its size). The flow is found with
// Hopcroft–Karp's phases — a BFS layering from the unsaturated left side, then a blocking set of
// shortest augmenting paths — which on a graph whose classes all have size 1 is exactly
// Hopcroft–Karp, and with multiplicities is Dinic's algorithm on the unit-depth network. This
// keeps the all-identical worst case (a complete 10⁴ × 10⁴ graph) to a single edge.

export interface ClassGraph {
  /** Size of each left (expected) class. */
  leftSizes: ArrayLike<number>;
  /** Size of each right (observed) class. */
  rightSizes: ArrayLike<number>;
  /** Compatible (left class, right class) pairs; each pair at most once. */
  edgesLeft: ArrayLike<number>;
  edgesRight: ArrayLike<number>;
}

/** The size of a maximum one-to-one matching between the expanded left and right vertices. */
export function maximumMatchingSize(graph: ClassGraph): number {
  const L = graph.leftSizes.length;
  const R = graph.rightSizes.length;
  const m = graph.edgesLeft.length;
  if (L === 0 || R === 0 || m === 0) return 0;

  // Nodes: 0 source, 1 sink, 2..2+L−1 left, 2+L..2+L+R−1 right.
  const nodeCount = 2 + L + R;
  const S = 0;
  const T = 1;
  const edgeCount = 2 * (L + R + m);
  const to = new Int32Array(edgeCount);
  const cap = new Float64Array(edgeCount);
  const tail = new Int32Array(edgeCount);
  let e = 0;
  const add = (u: number, v: number, c: number): void => {
    tail[e] = u;
    to[e] = v;
    cap[e] = c;
    e++;
    tail[e] = v;
    to[e] = u;
    cap[e] = 0;
    e++;
  };
  for (let i = 0; i < L; i++) add(S, 2 + i, graph.leftSizes[i] ?? 0);
  for (let j = 0; j < R; j++) add(2 + L + j, T, graph.rightSizes[j] ?? 0);
  for (let x = 0; x < m; x++) {
    const i = graph.edgesLeft[x] ?? 0;
    const j = graph.edgesRight[x] ?? 0;
    add(2 + i, 2 + L + j, Math.min(graph.leftSizes[i] ?? 0, graph.rightSizes[j] ?? 0));
  }

  // Compressed adjacency (edge ids grouped by tail node).
  const start = new Int32Array(nodeCount + 1);
  for (let x = 0; x < edgeCount; x++) start[(tail[x] ?? 0) + 1]! += 1;
  for (let u = 0; u < nodeCount; u++) start[u + 1]! += start[u]!;
  const adj = new Int32Array(edgeCount);
  const fill = start.slice(0, nodeCount);
  for (let x = 0; x < edgeCount; x++) {
    const u = tail[x]!;
    adj[fill[u]!] = x;
    fill[u]! += 1;
  }

  const level = new Int32Array(nodeCount);
  const queue = new Int32Array(nodeCount);
  const cursor = new Int32Array(nodeCount);
  const path = new Int32Array(nodeCount);
  let total = 0;

  for (;;) {
    // BFS layering over the residual network.
    level.fill(-1);
    level[S] = 0;
    let head = 0;
    let qEnd = 0;
    queue[qEnd++] = S;
    while (head < qEnd) {
      const u = queue[head++]!;
      for (let p = start[u]!; p < start[u + 1]!; p++) {
        const x = adj[p]!;
        const v = to[x]!;
        if (cap[x]! > 0 && level[v] === -1) {
          level[v] = level[u]! + 1;
          queue[qEnd++] = v;
        }
      }
    }
    if (level[T] === -1) break;

    // Blocking flow by iterative depth-first search with current-arc pointers.
    for (let u = 0; u < nodeCount; u++) cursor[u] = start[u]!;
    let depth = 0;
    let u = S;
    for (;;) {
      if (u === T) {
        let f = Infinity;
        for (let d = 0; d < depth; d++) f = Math.min(f, cap[path[d]!]!);
        for (let d = 0; d < depth; d++) {
          const x = path[d]!;
          cap[x]! -= f;
          cap[x ^ 1]! += f;
        }
        total += f;
        // Retreat to the tail of the first saturated edge on the path.
        let d = 0;
        while (d < depth && cap[path[d]!]! > 0) d++;
        depth = d;
        u = depth === 0 ? S : to[path[depth - 1]!]!;
        continue;
      }
      let advanced = false;
      while (cursor[u]! < start[u + 1]!) {
        const x = adj[cursor[u]!]!;
        const v = to[x]!;
        if (cap[x]! > 0 && level[v] === level[u]! + 1) {
          path[depth++] = x;
          u = v;
          advanced = true;
          break;
        }
        cursor[u]! += 1;
      }
      if (advanced) continue;
      if (u === S) break;
      level[u] = -1; // a dead end for the rest of the phase
      depth--;
      u = depth === 0 ? S : to[path[depth - 1]!]!;
      cursor[u]! += 1;
    }
  }
  return total;
}
