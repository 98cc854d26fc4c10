/**
 * A runnable tour of the graph engine, offline: state with reducers, a conditional loop,
 * a map-reduce fan-out with Send, and streaming.
 *
 *   npm start
 */
import { Annotation, END, Send, START, StateGraph } from "agentgraph";

const ResearchState = Annotation.Root({
  topic: Annotation<string>,
  questions: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  answers: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  rounds: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

interface Question {
  question: string;
}

const graph = new StateGraph(ResearchState)
  // Ask a few questions about the topic.
  .addNode("plan", (s) => ({
    questions: [`What is ${s.topic}?`, `Who uses ${s.topic}?`, `Why does ${s.topic} matter?`],
    rounds: 1,
  }))
  // One task per question, all in the same superstep (map).
  // A node reached through Send receives the Send's payload instead of the state.
  .addNode("answer", (task) => ({ answers: [`${(task as unknown as Question).question} — noted.`] }))
  // Runs once every answer of the round is in (reduce).
  .addNode("review", (s) => {
    console.log(`  review: ${s.answers.length} answers so far`);
    return {};
  })
  .addEdge(START, "plan")
  .addConditionalEdges(
    "plan",
    (s) => s.questions.slice(-3).map((question) => new Send("answer", { question } satisfies Question)),
    ["answer"],
  )
  .addEdge("answer", "review")
  .addConditionalEdges("review", (s) => (s.answers.length >= 6 ? END : "plan"), ["plan", END])
  .compile();

console.log("Graph:\n");
console.log(graph.getGraph().drawMermaid());

console.log("Streaming updates, one chunk per finished node:\n");
for await (const chunk of await graph.stream({ topic: "Pregel" })) {
  console.log(JSON.stringify(chunk));
}

const final = await graph.invoke({ topic: "Pregel" });
console.log(`\nFinal state after ${final.rounds} round(s) of planning: ${final.answers.length} answers.`);
