import type { AgentEvent } from "../agent/events.js";
import type { SessionAccounting } from "./turn-accounting.js";

/** `--max-budget-usd` and the cost warnings: what this process has spent, and what it cannot price. */
export class BudgetWatch {
  /** The session's cost when this process opened it: the budget counts from here. */
  private readonly costAtStart: number;
  private readonly unpricedModelsWarned = new Set<string>();

  constructor(
    private readonly accounting: SessionAccounting,
    private readonly maxBudgetUsd: number | undefined,
  ) {
    this.costAtStart = accounting.totalCostUsd();
  }

  /** Whether the budget is spent (a resumed session's earlier cost is not counted); undefined without a budget. */
  spent(): (() => boolean) | undefined {
    const budget = this.maxBudgetUsd;
    if (budget === undefined) return undefined;
    return () => this.accounting.totalCostUsd() - this.costAtStart >= budget;
  }

  /** Once per session and model: a model without a list price is counted as 0 USD. */
  noteUnpriced(model: string, emit: (event: AgentEvent) => void): void {
    if (this.unpricedModelsWarned.has(model)) return;
    this.unpricedModelsWarned.add(model);
    emit({
      type: "warning",
      code: "unknown_model_price",
      message: `No list price is known for model ${model}; its cost is counted as 0 USD (tokens are still reported).`,
    });
  }
}
