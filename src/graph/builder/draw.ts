/** A node of a drawable graph. */
export interface DrawableNode {
  id: string;
  name: string;
  metadata?: Record<string, unknown>;
}

/** An edge of a drawable graph; conditional edges are drawn dotted. */
export interface DrawableEdge {
  source: string;
  target: string;
  /** Label (the router result that leads here, when it differs from the target). */
  data?: string;
  conditional: boolean;
}

/** Options of {@link DrawableGraph.drawMermaid}. */
export interface MermaidOptions {
  /** Add the init line, node shapes and colour classes (default true). */
  withStyles?: boolean;
  /** Mermaid flowchart curve style (default "linear"). */
  curveStyle?: string;
  /** Colour classes (default: LangGraph's). */
  nodeColors?: Record<string, string>;
  /** Wrap edge labels every this many words (default 9). */
  wrapLabelNWords?: number;
}

const DEFAULT_COLORS: Record<string, string> = {
  default: "fill:#f2f0ff,line-height:1.2",
  first: "fill-opacity:0",
  last: "fill:#bfb6fc",
};

const MARKDOWN_SPECIAL = ["*", "_", "`"];
const MERMAID_ENTITIES: Record<string, string> = {
  "#": "#35;",
  "[": "#91;",
  "]": "#93;",
  "(": "#40;",
  ")": "#41;",
  "{": "#123;",
  "}": "#125;",
  '"': "#quot;",
  "<": "#60;",
  ">": "#62;",
  "|": "#124;",
};

const escapeId = (id: string) => id.replace(/[^a-zA-Z-_0-9]/g, "_");

function metadataValue(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  if (Array.isArray(value) && value.every((v) => ["string", "number", "boolean"].includes(typeof v))) {
    return value.join(",");
  }
  return undefined;
}

/**
 * The structure of a compiled graph, for drawing: `graph.getGraph().drawMermaid()` gives a
 * Mermaid flowchart (conditional edges dotted) in the same text LangGraph.js produces, which
 * GitHub, Notion and most documentation tools render.
 */
export class DrawableGraph {
  readonly nodes: Record<string, DrawableNode> = {};
  readonly edges: DrawableEdge[] = [];

  /** Adds a node (once). */
  addNode(id: string, metadata?: Record<string, unknown>): DrawableNode {
    const existing = this.nodes[id];
    if (existing !== undefined) return existing;
    const node: DrawableNode = { id, name: id };
    if (metadata !== undefined && Object.keys(metadata).length > 0) node.metadata = metadata;
    this.nodes[id] = node;
    return node;
  }

  /** Adds an edge. */
  addEdge(source: string, target: string, label?: string, conditional = false): void {
    const edge: DrawableEdge = { source, target, conditional };
    if (label !== undefined && label !== target) edge.data = label;
    this.edges.push(edge);
  }

  /** The one node without incoming edges, if there is exactly one. */
  firstNode(): DrawableNode | undefined {
    const targets = new Set(this.edges.map((e) => e.target));
    const found = Object.values(this.nodes).filter((n) => !targets.has(n.id));
    return found.length === 1 ? found[0] : undefined;
  }

  /** The one node without outgoing edges, if there is exactly one. */
  lastNode(): DrawableNode | undefined {
    const sources = new Set(this.edges.map((e) => e.source));
    const found = Object.values(this.nodes).filter((n) => !sources.has(n.id));
    return found.length === 1 ? found[0] : undefined;
  }

  /** The graph as a Mermaid flowchart. */
  drawMermaid(options: MermaidOptions = {}): string {
    const withStyles = options.withStyles ?? true;
    const wrap = options.wrapLabelNWords ?? 9;
    let out = withStyles
      ? `%%{init: {'flowchart': {'curve': '${options.curveStyle ?? "linear"}'}}}%%\ngraph TD;\n`
      : "graph TD;\n";
    if (withStyles) {
      const first = this.firstNode()?.id;
      const last = this.lastNode()?.id;
      for (const [id, node] of Object.entries(this.nodes)) {
        const name = node.name.split(":").pop() ?? "";
        let label = MARKDOWN_SPECIAL.some((c) => name.startsWith(c) && name.endsWith(c))
          ? `<p>${name}</p>`
          : name;
        const lines = Object.entries(node.metadata ?? {}).flatMap(([k, v]) => {
          const value = metadataValue(v);
          return value === undefined
            ? []
            : [`${k} = ${value}`.replace(/[#[\](){}"<>|]/g, (c) => MERMAID_ENTITIES[c] ?? c)];
        });
        if (lines.length > 0) label += `<hr/><small><em>${lines.join("\n")}</em></small>`;
        const shape =
          id === first
            ? `${escapeId(id)}([${label}]):::first`
            : id === last
              ? `${escapeId(id)}([${label}]):::last`
              : `${escapeId(id)}(${label})`;
        out += `\t${shape}\n`;
      }
    }
    for (const edge of this.edges) {
      let arrow: string;
      if (edge.data !== undefined) {
        const words = edge.data.split(" ");
        const text =
          words.length > wrap
            ? Array.from({ length: Math.ceil(words.length / wrap) }, (_, i) =>
                words.slice(i * wrap, (i + 1) * wrap).join(" "),
              ).join("&nbsp;<br>&nbsp;")
            : edge.data;
        arrow = edge.conditional ? ` -. &nbsp;${text}&nbsp; .-> ` : ` -- &nbsp;${text}&nbsp; --> `;
      } else {
        arrow = edge.conditional ? " -.-> " : " --> ";
      }
      out += `\t${escapeId(edge.source)}${arrow}${escapeId(edge.target)};\n`;
    }
    if (withStyles) {
      for (const [name, color] of Object.entries(options.nodeColors ?? DEFAULT_COLORS))
        out += `\tclassDef ${name} ${color};\n`;
    }
    return out;
  }
}
