// Finding Vina and Open Babel: versions read from the tools themselves, env overrides, typed errors that say
// which tool is missing and how to install it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DockingUnavailableError, findDockingTools } from '../src/index.js';
import { toolsOrSkip } from './helpers.js';

const { tools, skip } = await toolsOrSkip();

test('findDockingTools reports each tool with the version it prints', { skip }, async () => {
  assert.match(tools!.vina.version, /^\d+\.\d+\.\d+$/);
  assert.match(tools!.obabel.version, /^\d+\.\d+\.\d+$/);
  assert.ok(tools!.vina.path.startsWith('/'));
  // The same paths through the environment overrides.
  const again = await findDockingTools({
    env: { PATH: '', EVIDENT_VINA: tools!.vina.path, EVIDENT_OBABEL: tools!.obabel.path },
  });
  assert.deepEqual(again, tools);
});

test('a missing tool is docking_unavailable naming the tool and the install command', async () => {
  const cases: Array<[NodeJS.ProcessEnv, 'vina' | 'obabel', RegExp]> = [
    [{ PATH: '/nonexistent' }, 'vina', /not found on PATH/],
    [{ PATH: '', EVIDENT_VINA: 'vina' }, 'vina', /not an absolute path/],
    // An executable that is not Vina: it runs, but prints no Vina version.
    [{ PATH: '', EVIDENT_VINA: '/bin/echo', EVIDENT_OBABEL: '/bin/echo' }, 'vina', /did not report a version/],
  ];
  // With a working Vina, the error is about Open Babel alone.
  if (tools) {
    cases.push([
      { PATH: '', EVIDENT_VINA: tools.vina.path, EVIDENT_OBABEL: '/nonexistent/obabel' },
      'obabel',
      /not an executable/,
    ]);
  }
  for (const [env, tool, why] of cases) {
    await assert.rejects(findDockingTools({ env }), (e: unknown) => {
      assert.ok(e instanceof DockingUnavailableError, String(e));
      assert.equal(e.code, 'docking_unavailable');
      assert.equal(e.tool, tool);
      assert.match(e.message, why);
      assert.match(e.message, /apt-get install autodock-vina openbabel/);
      return true;
    });
  }
  await findDockingTools({ refresh: true }).catch(() => {});
});
