// What pi's own session manager makes of a session file: the branch it takes, each entry as pi
// holds it (the fields its extensions and the upstream adapters read), and the context pi would
// send the model. Run by tests/pi_loader/test_pi_reads_pideck_entries.py with pi 1.6.0 installed
// from the npm registry into the folder named by PI_PACKAGE_ROOT.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.PI_PACKAGE_ROOT;
const { SessionManager } = await import(
  pathToFileURL(join(root, "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")).href
);
const sm = SessionManager.open(process.argv[2]);
const branch = sm.getBranch().map((e) => ({
  id: e.id, parentId: e.parentId, type: e.type, customType: e.customType, data: e.data,
  content: e.content, display: e.display, details: e.details, timestamp: e.timestamp,
}));
const context = sm.buildSessionContext().messages.map((m) => ({ role: m.role, customType: m.customType, content: m.content }));
console.log(JSON.stringify({ leaf: sm.getLeafId(), entries: sm.getEntryCount(), branch, context }));
