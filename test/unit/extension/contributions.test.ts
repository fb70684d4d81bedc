import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CATEGORY, COMMAND_IDS, COMMANDS, CONTEXT_KEYS, JOURNEYS_VIEW_ID, VIEW_CONTAINER_ID, type CommandContribution } from '../../../src/extension/commands';
import { CONTEXT_VALUES } from '../../../src/extension/headless/journey-tree-model';
import { RESTRICTED_SETTINGS, SETTING_DEFAULTS, SETTINGS_SECTION } from '../../../src/extension/headless/settings';
import { TIMELINE_VIEW_TYPE } from '../../../src/protocol/timeline-protocol';

/** The custom editor of journey files (src/extension/journey-file-editor.ts imports vscode, so it is named here). */
const JOURNEY_FILE_VIEW_TYPE = 'kubeJourney.journeyFile';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

interface Manifest {
  main: string;
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string; enablement?: string }[];
    menus: Record<string, MenuEntry[]>;
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    views: Record<string, { id: string; icon?: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    configuration: { properties: Record<string, { default: unknown; type: string }> };
    customEditors: { viewType: string; selector: { filenamePattern: string }[]; priority: string }[];
  };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const contributed = manifest.contributes;
const table: Record<string, CommandContribution> = COMMANDS;

describe('package.json contributes, against the command table', () => {
  it('contributes exactly the commands of the table, with their titles, category, icons and enablement', () => {
    assert.deepEqual(contributed.commands.map((c) => c.command).sort(), [...COMMAND_IDS].sort());
    for (const entry of contributed.commands) {
      const expected = table[entry.command];
      assert.equal(entry.title, expected.title, entry.command);
      assert.equal(entry.category, CATEGORY, entry.command);
      assert.equal(entry.icon, expected.icon, entry.command);
      assert.equal(entry.enablement, expected.enablement, entry.command);
    }
  });

  it('never greys out Apply and Trace (the command checks trust itself) and restricts the cluster settings in untrusted workspaces', () => {
    // The workbench sets isWorkspaceTrusted late: an enablement or menu clause on it shows the
    // entry disabled or missing on a right-click right after a window opens.
    assert.equal(table['kubeJourney.applyAndTrace'].enablement, undefined);
    for (const [menu, entries] of Object.entries(contributed.menus)) {
      for (const entry of entries.filter((e) => e.command === 'kubeJourney.applyAndTrace')) assert.doesNotMatch(entry.when ?? '', /isWorkspaceTrusted/, menu);
    }
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual([...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(), RESTRICTED_SETTINGS.map((key) => `${SETTINGS_SECTION}.${key}`).sort());
  });

  it('shows each command in the Command Palette as the table says', () => {
    const palette = new Map(contributed.menus.commandPalette.map((entry) => [entry.command, entry.when]));
    for (const id of COMMAND_IDS) assert.equal(palette.get(id), table[id].palette, id);
  });

  it('names only known commands, views and context values in menus', () => {
    const contextValues = new Set<string>(Object.values(CONTEXT_VALUES));
    for (const [menu, entries] of Object.entries(contributed.menus)) {
      for (const entry of entries) {
        assert.ok(COMMAND_IDS.includes(entry.command as never), `${menu}: unknown command ${entry.command}`);
        for (const match of (entry.when ?? '').matchAll(/view == ([\w.]+)/g)) assert.equal(match[1], JOURNEYS_VIEW_ID, menu);
        for (const match of (entry.when ?? '').matchAll(/viewItem == ([\w.]+)/g)) assert.ok(contextValues.has(match[1]), `${menu}: unknown context value ${match[1]}`);
        const regex = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(entry.when ?? '');
        if (regex) assert.ok([...contextValues].some((value) => new RegExp(regex[1]).test(value)), `${menu}: ${regex[1]} matches no context value`);
        for (const match of (entry.when ?? '').matchAll(/kubeJourney\.(\w+)(?![\w.])/g)) {
          if (match[0] === TIMELINE_VIEW_TYPE || match[0] === JOURNEY_FILE_VIEW_TYPE) continue;
          if (!match[0].startsWith('kubeJourney.journeys')) assert.ok(Object.values(CONTEXT_KEYS).includes(match[0] as never), `${menu}: unknown context key ${match[0]}`);
        }
      }
    }
  });

  it('offers Apply and Trace in the editor and Explorer context menus of YAML files', () => {
    for (const menu of ['editor/context', 'explorer/context']) {
      const entry = contributed.menus[menu]?.find((e) => e.command === 'kubeJourney.applyAndTrace');
      assert.ok(entry, menu);
      assert.match(entry.when ?? '', /resourceLangId == yaml/);
      // Until the YAML language is registered the workbench calls a .yaml file plain text.
      assert.match(entry.when ?? '', /resourceExtname == \.yaml/);
      assert.match(entry.when ?? '', /resourceExtname == \.yml/);
    }
  });

  it('offers Open Timeline and the object YAML on every traced kind’s row', () => {
    const entries = contributed.menus['view/item/context'];
    const objects = [CONTEXT_VALUES.deployment, CONTEXT_VALUES.replicaSet, CONTEXT_VALUES.statefulSet, CONTEXT_VALUES.daemonSet, CONTEXT_VALUES.job, CONTEXT_VALUES.cronJob, CONTEXT_VALUES.replicationController, CONTEXT_VALUES.pod, CONTEXT_VALUES.unscheduledPod];
    for (const command of ['kubeJourney.openTimeline', 'kubeJourney.showObjectYaml']) {
      const when = entries.filter((e) => e.command === command).map((e) => /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(e.when ?? '')?.[1]);
      assert.ok(when.length > 0, command);
      for (const regex of when) for (const value of objects) assert.match(value, new RegExp(regex ?? '^$'), `${command} on ${value}`);
    }
  });

  it('offers no object action on a group of pods (it stands for no one object)', () => {
    for (const entry of contributed.menus['view/item/context']) {
      const regex = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(entry.when ?? '')?.[1];
      if (regex) assert.doesNotMatch(CONTEXT_VALUES.podGroup, new RegExp(regex), entry.command);
      assert.ok(!(entry.when ?? '').includes(`viewItem == ${CONTEXT_VALUES.podGroup}`), entry.command);
    }
  });

  it('offers the scheduler verdicts only for unscheduled pods', () => {
    const entry = contributed.menus['view/item/context'].find((e) => e.command === 'kubeJourney.showSchedulerVerdicts');
    assert.match(entry?.when ?? '', new RegExp(`viewItem == ${CONTEXT_VALUES.unscheduledPod.replace(/\./g, '\\.')}$`));
  });

  it('declares the view container, the view, its welcome text and their icons', () => {
    assert.deepEqual(contributed.viewsContainers.activitybar.map((c) => c.id), [VIEW_CONTAINER_ID]);
    assert.deepEqual(contributed.views[VIEW_CONTAINER_ID].map((v) => v.id), [JOURNEYS_VIEW_ID]);
    for (const icon of [...contributed.viewsContainers.activitybar.map((c) => c.icon), ...contributed.views[VIEW_CONTAINER_ID].map((v) => v.icon ?? '')]) assert.ok(existsSync(icon), icon);
    assert.ok(contributed.viewsWelcome.some((w) => w.view === JOURNEYS_VIEW_ID && w.contents.includes('command:kubeJourney.applyAndTrace')));
  });

  it('activates on YAML, the view, the timeline panel and every command, and points main at the bundle', () => {
    assert.equal(manifest.main, './dist/extension.js');
    const expected = ['onLanguage:yaml', `onView:${JOURNEYS_VIEW_ID}`, `onWebviewPanel:${TIMELINE_VIEW_TYPE}`, `onCustomEditor:${JOURNEY_FILE_VIEW_TYPE}`, ...COMMAND_IDS.map((id) => `onCommand:${id}`)];
    assert.deepEqual([...manifest.activationEvents].sort(), expected.sort());
  });

  it('declares every setting with the default the code uses', () => {
    const properties = contributed.configuration.properties;
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(SETTING_DEFAULTS).map((key) => `${SETTINGS_SECTION}.${key}`).sort());
    for (const [key, value] of Object.entries(SETTING_DEFAULTS)) assert.deepEqual(properties[`${SETTINGS_SECTION}.${key}`].default, value, key);
  });

  it('ships only the bundles, media, README, licence and package.json', () => {
    const ignore = readFileSync('.vscodeignore', 'utf8').split('\n').filter((line) => line && !line.startsWith('#'));
    assert.deepEqual(ignore, ['**', '!package.json', '!README.md', '!LICENSE*', '!dist/extension.js', '!dist/cluster.js', '!dist/simulator-server.js', '!dist/kubernetes-schema.json', '!media/timeline.js', '!media/timeline.css', '!media/compare.js', '!media/compare.css', '!media/kube-journey.svg']);
  });

  it('opens *.journey.json in the journey-file timeline by default, and offers Save Journey… and Compare With… where the journeys are', () => {
    assert.deepEqual(contributed.customEditors, [{ viewType: JOURNEY_FILE_VIEW_TYPE, displayName: 'Kube Journey Timeline', selector: [{ filenamePattern: '*.journey.json' }], priority: 'default' }]);
    const menus = contributed.menus;
    const save = menus['view/item/context'].find((e) => e.command === 'kubeJourney.saveJourney');
    const saveWhen = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(save?.when ?? '')?.[1] ?? '^$';
    for (const value of [CONTEXT_VALUES.deployment, CONTEXT_VALUES.pod, CONTEXT_VALUES.job]) assert.match(value, new RegExp(saveWhen), value);
    assert.ok(menus['editor/title'].some((e) => e.command === 'kubeJourney.saveJourney' && e.when === `activeWebviewPanelId == ${TIMELINE_VIEW_TYPE}`));
    assert.ok(menus['editor/title'].some((e) => e.command === 'kubeJourney.compareJourneyFiles' && e.when === `activeCustomEditorId == ${JOURNEY_FILE_VIEW_TYPE}`));
    const explorer = menus['explorer/context'].find((e) => e.command === 'kubeJourney.compareJourneyFiles');
    assert.match(explorer?.when ?? '', /resourceFilename =~ \/\\\.journey\\\.json\$\//);
  });
});
