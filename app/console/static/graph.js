// The graph of a user's facts, drawn as inline SVG: a small force layout (repulsion between
// every pair, springs along edges, a pull to the centre) seeded from a circle, so the same graph
// is always drawn the same way. No library, nothing fetched.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 1000;
const LABEL_CHARS = 28;

// The types app/knowledge/graph.py makes, each its own colour; any other type gets one by hash.
const COLOURS = {
  user: "#0f172a",
  organization: "#2563eb",
  place: "#dc2626",
  person: "#0d9488",
  role: "#7c3aed",
  team: "#4f46e5",
  topic: "#d97706",
  tool: "#0891b2",
  language: "#db2777",
  event: "#65a30d",
  contact: "#a16207",
  animal: "#9333ea",
  diet: "#16a34a",
  nationality: "#be123c",
  attribute: "#64748b",
  fact: "#475569",
};
const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#db2777", "#0891b2", "#65a30d", "#dc2626"];

function colour(type) {
  if (COLOURS[type]) return COLOURS[type];
  let hash = 0;
  for (const char of type) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

function s(tag, attrs, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

function short(text, limit = LABEL_CHARS) {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

// Positions in an abstract plane and the box to show of it; the caller scales that box into the
// picture. The graphs Dossier
// makes are stars (every fact is an edge from the user), drawn on rings around the user, sorted so
// one relation's entities sit together; any other graph gets the force layout.
export function layout(nodes, edges) {
  const centre = nodes.findIndex((node) => node.type === "user");
  const star = centre >= 0 && edges.every((edge) => edge.source === nodes[centre].id);
  return star ? rings(nodes, edges, centre) : forces(nodes, edges, centre);
}

function rings(nodes, edges, centre) {
  const relation = new Map(edges.map((edge) => [edge.target, edge.relation]));
  const others = nodes
    .map((node, i) => ({ node, i }))
    .filter(({ i }) => i !== centre)
    .sort(
      (a, b) =>
        (relation.get(a.node.id) || "").localeCompare(relation.get(b.node.id) || "") ||
        a.node.label.localeCompare(b.node.label),
    );
  const points = nodes.map(() => ({ x: 0, y: 0 }));
  const crowded = others.length > 14;
  const wide = 1.3; // wider than tall: labels run sideways, and the picture is too
  others.forEach(({ i }, k) => {
    const angle = (2 * Math.PI * k) / Math.max(others.length, 1) - Math.PI / 2;
    // Crowded: every other entity on an inner ring, so neighbours' labels do not collide.
    const radius = crowded && k % 2 ? 0.62 : 1;
    points[i] = { x: Math.cos(angle) * radius * wide, y: Math.sin(angle) * radius };
  });
  // The whole ellipse, whatever few points are on it: the user stays in the middle.
  return { points, box: { minX: -wide, maxX: wide, minY: -1, maxY: 1 } };
}

function forces(nodes, edges, centre) {
  const count = nodes.length;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const others = nodes.map((_, i) => i).filter((i) => i !== centre);
  const points = nodes.map(() => ({ x: 0, y: 0 }));
  // Seed on a circle (the user, if any, in the middle): the same graph is drawn the same way.
  others.forEach((i, k) => {
    const angle = (2 * Math.PI * k) / Math.max(others.length, 1) - Math.PI / 2;
    points[i] = { x: Math.cos(angle), y: Math.sin(angle) };
  });
  const links = edges
    .map((edge) => [index.get(edge.source), index.get(edge.target)])
    .filter(([a, b]) => a !== undefined && b !== undefined && a !== b);
  const ideal = 1;
  for (let step = 0; step < 300; step += 1) {
    const cooling = 0.06 * (1 - step / 300);
    const moves = points.map(() => ({ x: 0, y: 0 }));
    for (let a = 0; a < count; a += 1) {
      for (let b = a + 1; b < count; b += 1) {
        const dx = points[a].x - points[b].x;
        const dy = points[a].y - points[b].y;
        const distance = Math.max(Math.hypot(dx, dy), 0.01);
        const push = (ideal * ideal * 0.35) / (distance * distance);
        moves[a].x += (dx / distance) * push;
        moves[a].y += (dy / distance) * push;
        moves[b].x -= (dx / distance) * push;
        moves[b].y -= (dy / distance) * push;
      }
    }
    for (const [a, b] of links) {
      const dx = points[b].x - points[a].x;
      const dy = points[b].y - points[a].y;
      const distance = Math.max(Math.hypot(dx, dy), 0.01);
      const pull = (distance - ideal) * 0.5;
      moves[a].x += (dx / distance) * pull;
      moves[a].y += (dy / distance) * pull;
      moves[b].x -= (dx / distance) * pull;
      moves[b].y -= (dy / distance) * pull;
    }
    points.forEach((point, i) => {
      if (i === centre) return;
      const fx = moves[i].x - point.x * 0.05;
      const fy = moves[i].y - point.y * 0.05;
      const size = Math.hypot(fx, fy);
      const move = Math.min(size, cooling * 4) / Math.max(size, 1e-9);
      point.x += fx * move;
      point.y += fy * move;
    });
  }
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    points,
    box: { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) },
  };
}

// Scale the layout's box into the picture, leaving room on the sides for labels. Each axis fills
// its side: rings become ellipses as wide as the labels allow.
function fit({ points, box }, height) {
  const marginX = 215;
  const marginY = 60;
  const scaleX = (WIDTH - 2 * marginX) / (box.maxX - box.minX || 1);
  const scaleY = (height - 2 * marginY) / (box.maxY - box.minY || 1);
  const midX = (box.maxX + box.minX) / 2;
  const midY = (box.maxY + box.minY) / 2;
  return points.map((p) => ({ x: WIDTH / 2 + (p.x - midX) * scaleX, y: height / 2 + (p.y - midY) * scaleY }));
}

function edgeLabel(group) {
  return group
    .map((edge) => {
      if (edge.status === "retired") return `${edge.relation} (until ${edge.retired_on || "retired"})`;
      if (edge.status === "upcoming") return `${edge.relation} (from ${edge.valid_from})`;
      if (edge.happened_on) return `${edge.relation} (${edge.happened_on})`;
      return edge.relation;
    })
    .join(", ");
}

// The picture of `graph` ({user, nodes, edges}): an <svg> element.
export function drawGraph(graph) {
  const nodes = graph.nodes;
  // A crowded graph gets a taller picture, so its rings are not squeezed.
  const height = nodes.length > 15 ? 760 : nodes.length > 3 ? 560 : 360;
  const points = fit(layout(nodes, graph.edges), height);
  const at = new Map(nodes.map((node, i) => [node.id, points[i]]));
  const centre = { x: WIDTH / 2, y: height / 2 };
  const entities = nodes.filter((node) => node.type !== "user").length;
  const svg = s("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`,
    class: "graph",
    role: "img",
    "aria-label": `Graph of ${graph.user}: ${entities} entities, ${graph.edges.length} relationships`,
  });
  // Edges between the same two nodes are drawn once, their relations named together.
  const groups = new Map();
  for (const edge of graph.edges) {
    const key = `${edge.source}\u0000${edge.target}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(edge);
  }
  // Crowded, the relation goes under each entity's name instead of along its edge.
  const crowded = groups.size > 14;
  const relations = new Map([...groups.values()].map((group) => [group[0].target, edgeLabel(group)]));
  const edgeLayer = s("g", { class: "edges" });
  const labelLayer = s("g", { class: "edge-labels" });
  for (const group of groups.values()) {
    const from = at.get(group[0].source);
    const to = at.get(group[0].target);
    if (!from || !to) continue;
    const retired = group.every((edge) => edge.status === "retired");
    const label = edgeLabel(group);
    edgeLayer.append(
      s(
        "line",
        { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: retired ? "edge retired" : "edge" },
        s("title", {}, `${label} — fact ${group.map((edge) => edge.fact_id).join(", ")}`),
      ),
    );
    if (crowded) continue;
    labelLayer.append(
      s(
        "text",
        // Past the middle, away from the user's own label.
        { x: from.x + (to.x - from.x) * 0.58, y: from.y + (to.y - from.y) * 0.58 - 4, class: retired ? "edge-label retired" : "edge-label" },
        short(label, 40),
      ),
    );
  }
  // An entity only retired facts point at (a former employer) is drawn faded.
  const current = new Set(graph.edges.filter((edge) => edge.status !== "retired").map((edge) => edge.target));
  const nodeLayer = s("g", { class: "nodes" });
  // Where each entity sits on its ellipse: x and y as shares of the widest and tallest.
  const reachX = Math.max(1, ...points.map((p) => Math.abs(p.x - centre.x)));
  const reachY = Math.max(1, ...points.map((p) => Math.abs(p.y - centre.y)));
  const ring = (p) => Math.hypot((p.x - centre.x) / reachX, (p.y - centre.y) / reachY);
  const outer = Math.max(...points.map(ring));
  nodes.forEach((node) => {
    const point = at.get(node.id);
    const isUser = node.type === "user";
    const text = isUser ? graph.user : node.label;
    const live = isUser || current.has(node.id);
    // Labels point away from the user: sideways on the left and right, centred above the
    // outermost entities at the top and below those at the bottom.
    const dx = point.x - centre.x;
    const dy = point.y - centre.y;
    const vertical =
      !isUser && Math.abs(dx / reachX) < 0.35 * ring(point) && ring(point) > 0.8 * outer;
    const anchor = isUser || vertical ? "middle" : dx >= 0 ? "start" : "end";
    const x = isUser || vertical ? 0 : dx >= 0 ? 16 : -16;
    const y = isUser ? 40 : vertical ? (dy < 0 ? (crowded ? -32 : -18) : 28) : 4;
    nodeLayer.append(
      s(
        "g",
        { class: `node node-${node.type}${live ? "" : " retired"}`, transform: `translate(${point.x} ${point.y})` },
        s("title", {}, `${node.type}: ${text}${live ? "" : " (retired)"}`),
        s("circle", { r: isUser ? 22 : 11, fill: colour(node.type) }),
        s(
          "text",
          { x, y, "text-anchor": anchor, class: isUser ? "node-label user-label" : "node-label" },
          short(text),
        ),
        crowded && !isUser
          ? s(
              "text",
              { x, y: y + 14, "text-anchor": anchor, class: "node-relation" },
              short(relations.get(node.id) || "", 36),
            )
          : null,
      ),
    );
  });
  svg.append(edgeLayer, labelLayer, nodeLayer);
  return svg;
}

// The node types drawn, with their colours, for a legend.
export function legend(graph) {
  const types = [...new Set(graph.nodes.map((node) => node.type))];
  return types.map((type) => ({ type, colour: colour(type) }));
}
