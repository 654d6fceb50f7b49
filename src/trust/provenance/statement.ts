/** The in-toto statement inside an attestation: its predicate type and the subjects it vouches for. */
import * as z from 'zod';
import { parseJsonWithin, type JsonLimits } from '../../core/bounded-json.js';
import { ProvenanceError, shown } from './errors.js';

/** SLSA build provenance, as GitHub artifact attestations write it. */
export const BUILD_PREDICATE = 'https://slsa.dev/provenance/v1';
/** GitHub's immutable-release attestation. */
export const RELEASE_PREDICATE = 'https://in-toto.io/attestation/release/v0.1';

const Statement = z.object({
  _type: z.string(),
  subject: z
    .array(
      z.object({
        name: z.string().optional(),
        uri: z.string().optional(),
        digest: z.record(z.string(), z.string()),
      }),
    )
    .max(10_000),
  predicateType: z.string(),
  predicate: z.unknown().optional(),
});

/** A parsed statement. */
export type Statement = z.infer<typeof Statement>;

/** Room for the 10,000 subjects accepted below (a few values each) and a deep predicate. */
export const STATEMENT_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxValues: 100_000 };

const ReleasePredicate = z.object({ repository: z.string(), tag: z.string() });

/** Parses the DSSE payload; a payload that is not an in-toto statement is PROVENANCE_INVALID. */
export function parseStatement(payload: Buffer): Statement {
  const json = parseJsonWithin(payload.toString('utf8'), STATEMENT_JSON_LIMITS);
  if (!json.ok) throw new ProvenanceError('PROVENANCE_INVALID', `the attestation payload ${json.message}`);
  const parsed = Statement.safeParse(json.value);
  if (!parsed.success || !parsed.data._type.startsWith('https://in-toto.io/Statement/')) {
    throw new ProvenanceError('PROVENANCE_INVALID', 'the attestation payload is not an in-toto statement');
  }
  return parsed.data;
}

/** Requires a subject whose sha256 is `hex` (and, when given, whose name is `name`). */
export function requireSubject(statement: Statement, hex: string, name?: string): void {
  const match = statement.subject.some(
    (s) => s.digest.sha256?.toLowerCase() === hex && (name === undefined || s.name === name),
  );
  if (!match) {
    const what = name === undefined ? `sha256:${hex}` : `${name} with sha256:${hex}`;
    throw new ProvenanceError(
      'PROVENANCE_SUBJECT',
      `the attestation does not name ${what} among its subjects`,
      {
        subjects: statement.subject.slice(0, 5).map((s) => ({ name: s.name, sha256: s.digest.sha256 })),
      },
    );
  }
}

/** Requires a release attestation to be about `owner/repo` at `tag`. */
export function requireReleaseScope(statement: Statement, owner: string, repo: string, tag: string): void {
  const predicate = ReleasePredicate.safeParse(statement.predicate);
  if (!predicate.success) {
    throw new ProvenanceError('PROVENANCE_INVALID', 'the release attestation has no repository and tag');
  }
  const { repository, tag: attestedTag } = predicate.data;
  if (repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase() || attestedTag !== tag) {
    throw new ProvenanceError(
      'PROVENANCE_SUBJECT',
      `the release attestation is for ${shown(`${repository}@${attestedTag}`)}, not ${owner}/${repo}@${tag}`,
    );
  }
}
