import { END, START } from "../core/index.js";

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
  /** Add the colour classes (default true). */
  withStyles?: boolean;
  /** Mermaid flowchart curve style (default "linear"). */
  curveStyle?: string;
}

/**
 * The structure of a compiled graph, for drawing: `graph.getGraph().drawMermaid()` gives a
 * Mermaid flowchart (conditional edges dotted) that GitHub, Notion and most docs tools render.
 */
export class DrawableGraph {
  readonly nodes: Record<string, DrawableNode>;
  readonly edges: DrawableEdge[];

  constructor(nodes: Record<string, DrawableNode>, edges: DrawableEdge[]) {
    this.nodes = nodes;
    this.edges = edges;
  }

  /** The first node (`__start__`). */
  firstNode(): DrawableNode | undefined {
    return this.nodes[START];
  }

  /** The last node (`__end__`), when the graph can end. */
  lastNode(): DrawableNode | undefined {
    return this.nodes[END];
  }

  /** The graph as a Mermaid flowchart. */
  drawMermaid(options: MermaidOptions = {}): string {
    const withStyles = options.withStyles ?? true;
    const lines: string[] = [
      `%%{init: {'flowchart': {'curve': '${options.curveStyle ?? "linear"}'}}}%%`,
      "graph TD;",
    ];
    const sources = new Set(this.edges.map((e) => e.source));
    for (const node of Object.values(this.nodes)) {
      const id = mermaidId(node.id);
      if (node.id === START) lines.push(`\t${id}([<p>${node.name}</p>]):::first`);
      else if (node.id === END) lines.push(`\t${id}([<p>${node.name}</p>]):::last`);
      else if (!sources.has(node.id)) lines.push(`\t${id}([${node.name}]):::last`);
      else lines.push(`\t${id}(${node.name})`);
    }
    const ordered = [...this.edges.filter((e) => !e.conditional), ...this.edges.filter((e) => e.conditional)];
    for (const edge of ordered) {
      const from = mermaidId(edge.source);
      const to = mermaidId(edge.target);
      if (edge.conditional) {
        lines.push(
          edge.data === undefined
            ? `\t${from} -.-> ${to};`
            : `\t${from} -. &nbsp;${edge.data}&nbsp; .-> ${to};`,
        );
      } else {
        lines.push(
          edge.data === undefined
            ? `\t${from} --> ${to};`
            : `\t${from} -- &nbsp;${edge.data}&nbsp; --> ${to};`,
        );
      }
    }
    if (withStyles) {
      lines.push("\tclassDef default fill:#f2f0ff,line-height:1.2;");
      lines.push("\tclassDef first fill-opacity:0;");
      lines.push("\tclassDef last fill:#bfb6fc;");
    }
    return `${lines.join("\n")}\n`;
  }
}

function mermaidId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`);
}
