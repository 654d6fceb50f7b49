/** The strategies a recipe can name. */
export const STRATEGIES = ['forge', 'direct', 'script'] as const;

/** One of the strategies a recipe can name. */
export type StrategyName = (typeof STRATEGIES)[number];

// Names people reach for from other tools (gh, AppImageUpdate, Topgrade) and the strategy that covers them.
const STRATEGY_ALIASES: Readonly<Record<string, { use: StrategyName; why: string }>> = {
  github: { use: 'forge', why: 'GitHub releases are the forge strategy' },
  gitlab: { use: 'forge', why: 'GitLab releases are the forge strategy' },
  gitea: { use: 'forge', why: 'Gitea and Forgejo releases are the forge strategy' },
  forgejo: { use: 'forge', why: 'Forgejo releases are the forge strategy' },
  codeberg: { use: 'forge', why: 'Codeberg releases are the forge strategy' },
  url: { use: 'direct', why: 'a fixed download URL is the direct strategy' },
  http: { use: 'direct', why: 'a fixed download URL is the direct strategy' },
  shell: { use: 'script', why: 'a resolver script is the script strategy' },
};

/** The strategy another tool's word (`github`, `url`) stands for, with why; undefined for other words. */
export function strategyAlias(word: unknown): { use: StrategyName; why: string } | undefined {
  if (typeof word !== 'string') return undefined;
  return Object.hasOwn(STRATEGY_ALIASES, word.toLowerCase())
    ? STRATEGY_ALIASES[word.toLowerCase()]
    : undefined;
}
