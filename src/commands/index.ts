import type { AnyCommandSpec } from './command-spec.js';
import { add } from './add.js';
import { adopt } from './adopt.js';
import { check } from './check.js';
import { completion } from './completion.js';
import { doctor } from './doctor.js';
import { edit } from './edit.js';
import { info } from './info.js';
import { init } from './init.js';
import { list } from './list.js';
import { lock } from './lock.js';
import { remove } from './remove.js';
import { rollback } from './rollback.js';
import { schedule } from './schedule.js';
import { schema } from './schema.js';
import { search } from './search.js';
import { selfUpdateSpec } from './self-update.js';
import { unhold } from './unhold.js';
import { update } from './update.js';
import { validate } from './validate.js';
import { version } from './version.js';

/**
 * Every command, in the order help, docs/cli.md, the man page and completion list them. A new
 * command is its module plus one line here. The modules load nothing heavy until their handler runs.
 */
export const COMMANDS: readonly AnyCommandSpec[] = [
  init,
  validate,
  list,
  info,
  edit,
  schema,
  completion,
  version,
  check,
  update,
  lock,
  remove,
  schedule,
  doctor,
  rollback,
  unhold,
  selfUpdateSpec,
  adopt,
  search,
  add,
];
