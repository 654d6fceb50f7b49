// Entry of the quick bundle (dist/quick.cjs): `list` and `validate` without commander and the
// other commands' modules, loaded by the launcher (launcher.ts, docs/decisions.md "Start-up").
export { runQuick } from '../cli/quick-run.js';
