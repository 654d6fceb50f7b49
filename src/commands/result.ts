/** What a command handler returns; only main.ts prints it. */
export interface CommandResult {
  exitCode: number;
  /** The one JSON document printed with --json. */
  json: Record<string, unknown>;
  /** Human text for stdout (may be empty). */
  human: string;
}
