import { InvalidGraphError } from "../core/index.js";

/** A node of a drawable graph. */
export interface DrawableNode {
  id: string;
  name: string;
  metadata?: Record<string, unknown>;
  /** What the node runs, as `toJSON()` reports it (`{ id, name }`); none for `__start__`/`__end__`. */
  data?: DrawableRunnable;
  /** For a node without `data`: the JSON Schema `toJSON()` reports (default: an empty 2020-12 schema). */
  schema?: Record<string, unknown>;
}

/** The runnable behind a drawn node, as LangChain.js identifies it (`lc_id` and name). */
export interface DrawableRunnable {
  id: string[];
  name: string;
}

/**
 * One node of {@link DrawableGraph.toJSON}: a runnable, or the input/output schema. A node whose
 * id is a UUID (a runnable drawn on its own, such as an `entrypoint`) is numbered instead.
 */
export type DrawableNodeJson =
  | { id: string | number; type: "runnable"; data: DrawableRunnable; metadata?: Record<string, unknown> }
  | { id: string | number; type: "schema"; data: Record<string, unknown> };

/** The JSON form of a drawable graph, as LangChain.js's `Graph.toJSON()` gives it. */
export interface DrawableGraphJson {
  nodes: DrawableNodeJson[];
  edges: { source: string | number; target: string | number; data?: string; conditional?: boolean }[];
}

/** An edge of a drawable graph; conditional edges are drawn dotted. */
export interface DrawableEdge {
  source: string;
  target: string;
  /** Label (the router result that leads here, when it differs from the target). */
  data?: string;
  /** Whether a router chooses the edge (left out for the edges of a runnable drawn on its own). */
  conditional?: boolean;
}

/** Options of {@link DrawableGraph.drawMermaidPng}: the drawing's, and the image's background. */
export interface MermaidPngOptions extends MermaidOptions {
  /** A CSS colour name or `#rgb`/`#rrggbb` hex (default `"white"`). */
  backgroundColor?: string;
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

const UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i;
/** True for the UUID ids LangChain.js gives nodes added without an id. */
const isUuid = (id: string) => UUID.test(id);

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
  addNode(
    id: string,
    metadata?: Record<string, unknown>,
    data?: DrawableRunnable,
    name: string = id,
  ): DrawableNode {
    const existing = this.nodes[id];
    if (existing !== undefined) return existing;
    const node: DrawableNode = { id, name };
    if (metadata !== undefined) node.metadata = metadata;
    if (data !== undefined) node.data = data;
    this.nodes[id] = node;
    return node;
  }

  /**
   * Adds an edge between two nodes of the graph, given as nodes (as in LangChain.js) or by id, and
   * returns it (`conditional` left out: an edge of a runnable drawn on its own). Throws LangChain.js's
   * error when an end is not in the graph.
   */
  addEdge(
    source: string | Pick<DrawableNode, "id">,
    target: string | Pick<DrawableNode, "id">,
    label?: string,
    conditional?: boolean,
  ): DrawableEdge {
    const from = typeof source === "string" ? source : source.id;
    const to = typeof target === "string" ? target : target.id;
    if (this.nodes[from] === undefined) throw new Error(`Source node ${from} not in graph`);
    if (this.nodes[to] === undefined) throw new Error(`Target node ${to} not in graph`);
    const edge: DrawableEdge = { source: from, target: to };
    if (label !== undefined) edge.data = label;
    if (conditional !== undefined) edge.conditional = conditional;
    this.edges.push(edge);
    return edge;
  }

  /**
   * The graph as JSON, in LangChain.js's `Graph.toJSON()` shape: nodes with `type: "runnable"`
   * (`data: { id, name }`, `metadata`) or `type: "schema"` (`__start__`/`__end__`), and edges
   * with `source`, `target`, `data` (the label, if any) and `conditional`.
   */
  toJSON(): DrawableGraphJson {
    // UUID ids (nodes added without an id of their own) become their position, as in LangChain.js
    const stableIds = new Map<string, string | number>();
    Object.values(this.nodes).forEach((node, i) => {
      stableIds.set(node.id, isUuid(node.id) ? i : node.id);
    });
    const stable = (id: string) => stableIds.get(id) ?? id;
    return {
      nodes: Object.values(this.nodes).map((node): DrawableNodeJson => {
        const id = stable(node.id);
        if (node.data === undefined) {
          return {
            id,
            type: "schema",
            data: node.schema ?? { $schema: "https://json-schema.org/draft/2020-12/schema" },
          };
        }
        return node.metadata === undefined
          ? { id, type: "runnable", data: node.data }
          : { id, type: "runnable", data: node.data, metadata: { ...node.metadata } };
      }),
      edges: this.edges.map(({ source, target, data, conditional }) => {
        const edge: DrawableGraphJson["edges"][number] = { source: stable(source), target: stable(target) };
        if (data !== undefined) edge.data = data;
        if (conditional !== undefined) edge.conditional = conditional;
        return edge;
      }),
    };
  }

  /** The one node without incoming edges (ignoring the nodes in `exclude`), if there is exactly one. */
  firstNode(exclude: readonly string[] = []): DrawableNode | undefined {
    const targets = new Set(this.edges.filter((e) => !exclude.includes(e.source)).map((e) => e.target));
    const found = Object.values(this.nodes).filter((n) => !exclude.includes(n.id) && !targets.has(n.id));
    return found.length === 1 ? found[0] : undefined;
  }

  /** The one node without outgoing edges (ignoring the nodes in `exclude`), if there is exactly one. */
  lastNode(exclude: readonly string[] = []): DrawableNode | undefined {
    const sources = new Set(this.edges.filter((e) => !exclude.includes(e.target)).map((e) => e.source));
    const found = Object.values(this.nodes).filter((n) => !exclude.includes(n.id) && !sources.has(n.id));
    return found.length === 1 ? found[0] : undefined;
  }

  /** Removes a node (given as a node, as in LangChain.js, or by id) and its edges. */
  removeNode(node: string | Pick<DrawableNode, "id">): void {
    const id = typeof node === "string" ? node : node.id;
    delete this.nodes[id];
    for (let i = this.edges.length - 1; i >= 0; i--) {
      const edge = this.edges[i] as DrawableEdge;
      if (edge.source === id || edge.target === id) this.edges.splice(i, 1);
    }
  }

  /** Removes the first node when another single first node remains (LangChain.js `trimFirstNode`). */
  trimFirstNode(): void {
    const first = this.firstNode();
    if (first !== undefined && this.firstNode([first.id]) !== undefined) this.removeNode(first.id);
  }

  /** Removes the last node when another single last node remains (LangChain.js `trimLastNode`). */
  trimLastNode(): void {
    const last = this.lastNode();
    if (last !== undefined && this.lastNode([last.id]) !== undefined) this.removeNode(last.id);
  }

  /**
   * Copies another graph's nodes and edges in, their ids prefixed with `<prefix>:` (names kept),
   * and returns the prefixed ids of its single first and last nodes, when it has them.
   */
  extend(graph: DrawableGraph, prefix: string): [string | undefined, string | undefined] {
    // a graph of UUID-identified nodes (a runnable drawn on its own) is not prefixed
    const ids = Object.keys(graph.nodes);
    const finalPrefix = ids.length > 0 && ids.every(isUuid) ? "" : prefix;
    const prefixed = (id: string) => (finalPrefix === "" ? id : `${finalPrefix}:${id}`);
    for (const node of Object.values(graph.nodes)) {
      const id = prefixed(node.id);
      this.nodes[id] = { ...node, id };
    }
    for (const edge of graph.edges) {
      this.edges.push({ ...edge, source: prefixed(edge.source), target: prefixed(edge.target) });
    }
    const first = graph.firstNode();
    const last = graph.lastNode();
    return [
      first === undefined ? undefined : prefixed(first.id),
      last === undefined ? undefined : prefixed(last.id),
    ];
  }

  /**
   * A copy whose UUID-identified nodes go by their names when those are unique (LangChain.js
   * `reid`), as the drawing shows them.
   */
  private reid(): DrawableGraph {
    const ids = Object.keys(this.nodes);
    if (!ids.some(isUuid)) return this;
    const counts = new Map<string, number>();
    for (const node of Object.values(this.nodes)) counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
    const newId = (id: string) => {
      const name = this.nodes[id]?.name;
      return name !== undefined && isUuid(id) && counts.get(name) === 1 ? name : id;
    };
    const copy = new DrawableGraph();
    for (const [id, node] of Object.entries(this.nodes)) copy.nodes[newId(id)] = { ...node, id: newId(id) };
    for (const edge of this.edges)
      copy.edges.push({ ...edge, source: newId(edge.source), target: newId(edge.target) });
    return copy;
  }

  /**
   * The graph as a PNG image (a `Blob`), rendered by the Mermaid.INK web service from
   * {@link drawMermaid}'s text, as LangChain.js's `drawMermaidPng` does: this sends the diagram
   * over the network. Throws when the service answers with an error status.
   */
  async drawMermaidPng(options: MermaidPngOptions = {}): Promise<Blob> {
    const { backgroundColor = "white", ...drawing } = options;
    const bytes = new TextEncoder().encode(this.drawMermaid(drawing));
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const encoded = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    // a colour name goes with a leading "!", a hex colour as it is (the service's convention)
    const background = /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(backgroundColor)
      ? backgroundColor
      : `!${backgroundColor}`;
    const response = await fetch(`https://mermaid.ink/img/${encoded}?bgColor=${background}&type=png`);
    if (!response.ok) {
      throw new Error(
        [
          "Failed to render the graph using the Mermaid.INK API.",
          `Status code: ${response.status}`,
          `Status text: ${response.statusText}`,
        ].join("\n"),
      );
    }
    return response.blob();
  }

  /** The graph as a Mermaid flowchart. */
  drawMermaid(options: MermaidOptions = {}): string {
    const graph = this.reid();
    if (graph !== this) return graph.drawMermaid(options);
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
    // edges inside a subgraph (drawn with `getGraph({ xray: true })`) go in a `subgraph` block,
    // grouped by the prefix their two ends share, as LangChain.js draws them; the groups are kept
    // by prefix in an object, so a prefix that is an array index (a node named `1`) comes first,
    // as there
    const groups: Record<string, DrawableEdge[]> = Object.create(null);
    for (const edge of this.edges) {
      const targetParts = edge.target.split(":");
      const prefix = edge.source
        .split(":")
        .filter((part, i) => part === targetParts[i])
        .join(":");
      const group = groups[prefix];
      if (group === undefined) groups[prefix] = [edge];
      else group.push(edge);
    }
    const seen = new Set<string>();
    const drawGroup = (edges: readonly DrawableEdge[], prefix: string): void => {
      const selfLoop = edges.length === 1 && edges[0]?.source === edges[0]?.target;
      if (prefix !== "" && !selfLoop) {
        const title = prefix.split(":").pop() ?? prefix;
        if (seen.has(prefix)) {
          throw new InvalidGraphError(
            `Found duplicate subgraph '${title}' -- this likely means that you're reusing a subgraph node with the same name. Please adjust your graph to have subgraph nodes with unique names.`,
          );
        }
        seen.add(prefix);
        out += `\tsubgraph ${title}\n`;
      }
      const depth = prefix.split(":").length;
      const nested = Object.keys(groups)
        .filter((p) => prefix !== "" && p.startsWith(`${prefix}:`) && p.split(":").length === depth + 1)
        .sort((a, b) => a.split(":").length - b.split(":").length);
      for (const p of nested) drawGroup(groups[p] ?? [], p);
      for (const edge of edges) drawEdge(edge);
      if (prefix !== "" && !selfLoop) out += "\tend\n";
    };
    const drawEdge = (edge: DrawableEdge): void => {
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
    };
    drawGroup(groups[""] ?? [], "");
    for (const [prefix, edges] of Object.entries(groups)) {
      if (prefix !== "" && !prefix.includes(":")) drawGroup(edges, prefix);
    }
    if (withStyles) {
      for (const [name, color] of Object.entries(options.nodeColors ?? DEFAULT_COLORS))
        out += `\tclassDef ${name} ${color};\n`;
    }
    return out;
  }
}
