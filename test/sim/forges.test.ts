import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, type Sim } from '../../sim/index.js';
import { json, raw } from './raw-http.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => v as Obj;
const list = (v: unknown): Obj[] => v as Obj[];

void describe('hub releases', () => {
  let sim: Sim;
  let assetUrl: string;
  before(async () => {
    sim = await startSim({ hubWebBase: 'https://hub.example/' });
    assetUrl = sim.putAsset('/dl/App-2.0-x86_64.AppImage', Buffer.alloc(1234, 1));
    sim.hub.setReleases('Owner', 'Repo', [
      { tag: 'v3.0-draft', draft: true, assets: [] },
      { tag: 'v2.1-rc1', prerelease: true, assets: [] },
      {
        tag: 'v2.0',
        name: 'Version 2.0',
        publishedAt: new Date('2025-05-01T10:00:00Z'),
        assets: [
          { name: 'App-2.0-x86_64.AppImage', url: assetUrl, digest: `sha256:${'ab'.repeat(32)}` },
          { name: 'App-2.0-x86_64.AppImage.zsync', url: `${sim.url}/dl/none.zsync`, size: 99 },
        ],
      },
      { tag: 'v1.0', assets: [] },
    ]);
  });
  after(() => sim.stop());

  void test('GET /repos/{owner}/{repo}: the repository record, archived as marked; 404 for an unknown one', async () => {
    const before = await json(`${sim.url}/repos/owner/repo`);
    assert.equal(before.status, 200);
    assert.equal(obj(before.body).full_name, 'owner/repo');
    assert.equal(obj(before.body).archived, false);
    sim.hub.setArchived('Owner', 'Repo', true);
    try {
      assert.equal(obj((await json(`${sim.url}/repos/owner/repo`)).body).archived, true);
      // Archived repositories keep serving their releases.
      assert.equal((await json(`${sim.url}/repos/owner/repo/releases/latest`)).status, 200);
    } finally {
      sim.hub.setArchived('Owner', 'Repo', false);
    }
    assert.equal((await json(`${sim.url}/repos/owner/nosuch`)).status, 404);
  });

  void test('latest skips drafts and prereleases and has the GitHub shape', async () => {
    const res = await json(`${sim.url}/repos/owner/repo/releases/latest`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const r = obj(res.body);
    assert.equal(r.tag_name, 'v2.0');
    assert.equal(r.name, 'Version 2.0');
    assert.equal(r.draft, false);
    assert.equal(r.prerelease, false);
    assert.equal(r.published_at, '2025-05-01T10:00:00Z');
    assert.equal(typeof r.id, 'number');
    assert.equal(r.html_url, 'https://hub.example/owner/repo/releases/tag/v2.0');
    const assets = list(r.assets);
    assert.equal(assets.length, 2);
    assert.deepEqual(
      { ...assets[0], id: 0, url: '', uploader: null, created_at: '', updated_at: '', node_id: '' },
      {
        id: 0,
        url: '',
        node_id: '',
        uploader: null,
        created_at: '',
        updated_at: '',
        name: 'App-2.0-x86_64.AppImage',
        label: '',
        content_type: 'application/octet-stream',
        state: 'uploaded',
        size: 1234,
        digest: `sha256:${'ab'.repeat(32)}`,
        download_count: 0,
        browser_download_url: assetUrl,
      },
    );
    assert.equal(assets[1]?.size, 99);
    assert.equal(assets[1]?.digest, null);
  });

  void test('list is newest first, hides drafts without a token, paginates', async () => {
    const anon = list((await json(`${sim.url}/repos/owner/repo/releases`)).body);
    assert.deepEqual(
      anon.map((r) => r.tag_name),
      ['v2.1-rc1', 'v2.0', 'v1.0'],
    );
    const authed = list(
      (await json(`${sim.url}/repos/owner/repo/releases`, { authorization: 'Bearer t' })).body,
    );
    assert.equal(authed[0]?.tag_name, 'v3.0-draft');
    assert.equal(authed[0]?.published_at, null);
    const page = await json(`${sim.url}/repos/owner/repo/releases?per_page=2&page=1`);
    assert.equal(list(page.body).length, 2);
    assert.match(String(page.headers.link), /page=2>; rel="next"/);
  });

  void test('by tag, by id and unknown repositories', async () => {
    const tag = await json(`${sim.url}/repos/owner/repo/releases/tags/v1.0`);
    assert.equal(obj(tag.body).tag_name, 'v1.0');
    const byId = await json(`${sim.url}/repos/owner/repo/releases/${String(obj(tag.body).id)}`);
    assert.equal(obj(byId.body).tag_name, 'v1.0');
    const missing = await json(`${sim.url}/repos/nobody/nothing/releases/latest`);
    assert.equal(missing.status, 404);
    assert.equal(obj(missing.body).message, 'Not Found');
  });

  void test('latest is 404 when only prereleases exist; setLatest publishes the newest', async () => {
    sim.hub.setLatest('o', 'pre', { tag: 'v0.1-beta', prerelease: true, assets: [] });
    assert.equal((await json(`${sim.url}/repos/o/pre/releases/latest`)).status, 404);
    sim.hub.setLatest('o', 'pre', { tag: 'v0.1', assets: [] });
    sim.hub.setLatest('o', 'pre', { tag: 'v0.2', assets: [] });
    assert.equal(obj((await json(`${sim.url}/repos/o/pre/releases/latest`)).body).tag_name, 'v0.2');
    const tags = list((await json(`${sim.url}/repos/o/pre/releases`)).body).map((r) => r.tag_name);
    assert.deepEqual(tags, ['v0.2', 'v0.1', 'v0.1-beta']);
  });

  void test('metadata has a strong ETag and answers If-None-Match with 304', async () => {
    const first = await raw(`${sim.url}/repos/owner/repo/releases/latest`);
    const etag = first.headers.etag ?? '';
    assert.match(etag, /^"[0-9a-f]+"$/);
    assert.ok(first.headers['last-modified']);
    const again = await raw(`${sim.url}/repos/owner/repo/releases/latest`, {
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    sim.hub.setLatest('owner', 'repo', { tag: 'v2.2', assets: [] });
    const changed = await raw(`${sim.url}/repos/owner/repo/releases/latest`, {
      headers: { 'if-none-match': etag },
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
  });
});

void describe('hub enterprise prefix', () => {
  void test('serves the API under hubApiPrefix only', async () => {
    const sim = await startSim({ hubApiPrefix: '/api/v3/' });
    try {
      sim.hub.setLatest('o', 'r', { tag: 'v1', assets: [] });
      assert.equal(sim.hubApiUrl, `${sim.url}/api/v3`);
      const res = await json(`${sim.hubApiUrl}/repos/o/r/releases/latest`);
      assert.equal(res.status, 200);
      assert.equal(obj(res.body).url, `${sim.url}/api/v3/repos/o/r/releases/${String(obj(res.body).id)}`);
      assert.equal(obj(res.body).html_url, `${sim.url}/o/r/releases/tag/v1`);
      assert.equal((await raw(`${sim.url}/repos/o/r/releases/latest`)).status, 404);
    } finally {
      await sim.stop();
    }
  });
});

void describe('lab releases', () => {
  let sim: Sim;
  let assetUrl: string;
  before(async () => {
    sim = await startSim();
    assetUrl = sim.putAsset('/dl/lab.AppImage', Buffer.from('lab'));
    sim.lab.setLatest('group/sub/project', { tag: 'v1.0', assets: [] });
    sim.lab.setLatest('group/sub/project', {
      tag: 'v1.1',
      name: 'One one',
      publishedAt: new Date('2025-06-01T00:00:00Z'),
      assets: [
        {
          name: 'lab.AppImage',
          url: `${sim.url}/group/sub/project/-/jobs/1/artifacts`,
          directAssetUrl: assetUrl,
        },
      ],
    });
  });
  after(() => sim.stop());

  void test('permalink/latest redirects to the release like GitLab; the release has the documented shape', async () => {
    const permalink = `${sim.labApiUrl}/projects/group%2Fsub%2Fproject/releases/permalink/latest`;
    const hop = await raw(permalink);
    assert.equal(hop.status, 302);
    const location = hop.headers.location ?? '';
    assert.match(location, /\/api\/v4\/projects\/\d+\/releases\/v1\.1$/);
    const res = await json(location);
    assert.equal(res.status, 200);
    const r = obj(res.body);
    assert.equal(r.tag_name, 'v1.1');
    assert.equal(r.name, 'One one');
    assert.equal(r.released_at, '2025-06-01T00:00:00Z');
    assert.equal(r.upcoming_release, false);
    assert.equal(obj(r._links).self, `${sim.url}/group/sub/project/-/releases/v1.1`);
    const assets = obj(r.assets);
    assert.equal(assets.count, 1);
    assert.deepEqual(assets.sources, []);
    const [link] = list(assets.links);
    assert.equal(link?.name, 'lab.AppImage');
    assert.equal(link?.direct_asset_url, assetUrl);
    assert.equal(link?.link_type, 'package');
    assert.equal(typeof link?.id, 'number');
  });

  void test('the same release by encoded path and tag; the list is newest first', async () => {
    const byPath = await json(`${sim.labApiUrl}/projects/group%2Fsub%2Fproject/releases/v1.0`);
    assert.equal(obj(byPath.body).tag_name, 'v1.0');
    const all = list((await json(`${sim.labApiUrl}/projects/group%2Fsub%2Fproject/releases`)).body);
    assert.deepEqual(
      all.map((r) => r.tag_name),
      ['v1.1', 'v1.0'],
    );
  });

  void test('permalink/latest keeps a suffix path and the query in its redirect', async () => {
    const hop = await raw(
      `${sim.labApiUrl}/projects/group%2Fsub%2Fproject/releases/permalink/latest/downloads/app?x=1`,
    );
    assert.equal(hop.status, 302);
    assert.match(hop.headers.location ?? '', /\/releases\/v1\.1\/downloads\/app\?x=1$/);
  });

  void test('unknown or unencoded projects are 404', async () => {
    const unknown = await json(`${sim.labApiUrl}/projects/other%2Fproject/releases/permalink/latest`);
    assert.equal(unknown.status, 404);
    assert.match(String(obj(unknown.body).message), /404/);
    const unencoded = await raw(`${sim.labApiUrl}/projects/group/sub/project/releases/permalink/latest`);
    assert.equal(unencoded.status, 404);
  });

  void test('labPermalinkRedirect: false serves the latest release inline', async () => {
    const inline = await startSim({ labPermalinkRedirect: false });
    try {
      inline.lab.setLatest('g/p', { tag: 'v9', assets: [] });
      const res = await json(`${inline.labApiUrl}/projects/g%2Fp/releases/permalink/latest`);
      assert.equal(res.status, 200);
      assert.equal(obj(res.body).tag_name, 'v9');
    } finally {
      await inline.stop();
    }
  });
});

void describe('gitea and forgejo', () => {
  let sim: Sim;
  before(async () => {
    sim = await startSim();
  });
  after(() => sim.stop());

  void test('swagger.v1.json announces the flavor, none is 404', async () => {
    assert.equal((await raw(`${sim.url}/swagger.v1.json`)).status, 404);
    sim.gitea.setFlavor('gitea');
    assert.equal(obj(obj((await json(`${sim.url}/swagger.v1.json`)).body).info).title, 'Gitea API');
    sim.gitea.setFlavor('forgejo');
    assert.equal(obj(obj((await json(`${sim.url}/swagger.v1.json`)).body).info).title, 'Forgejo API');
    sim.gitea.setFlavor('none');
    assert.equal((await raw(`${sim.url}/swagger.v1.json`)).status, 404);
  });

  void test('a gitea release makes the origin a gitea unless a flavor was set', async () => {
    const fresh = await startSim();
    try {
      fresh.gitea.setLatest('o', 'r', { tag: 'v1', assets: [] });
      assert.equal(obj(obj((await json(`${fresh.url}/swagger.v1.json`)).body).info).title, 'Gitea API');
    } finally {
      await fresh.stop();
    }
  });

  void test('releases/latest has the Gitea shape and skips drafts and prereleases', async () => {
    sim.gitea.setFlavor('forgejo');
    const asset = sim.putAsset('/attachments/abc', Buffer.alloc(77));
    sim.gitea.setReleases('Team', 'Tool', [
      { tag: 'v2-rc', prerelease: true, assets: [] },
      { tag: 'v1.5', assets: [{ name: 'Tool.AppImage', url: asset }] },
    ]);
    const res = await json(`${sim.url}/api/v1/repos/team/tool/releases/latest`);
    assert.equal(res.status, 200);
    const r = obj(res.body);
    assert.equal(r.tag_name, 'v1.5');
    assert.equal(r.draft, false);
    assert.equal(r.prerelease, false);
    assert.equal(r.html_url, `${sim.url}/team/tool/releases/tag/v1.5`);
    const [a] = list(r.assets);
    assert.equal(a?.name, 'Tool.AppImage');
    assert.equal(a?.size, 77);
    assert.equal(a?.browser_download_url, asset);
    assert.equal(typeof a?.id, 'number');
    const missing = await json(`${sim.url}/api/v1/repos/team/none/releases/latest`);
    assert.equal(missing.status, 404);
  });
});
