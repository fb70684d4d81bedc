/**
 * Every command of the extension in one typed table: id, title, icon, enablement and where it
 * appears in the Command Palette. package.json's `contributes` must say the same thing; a
 * plain-Node test (test/unit/extension/contributions.test.ts) checks it, so the two cannot drift.
 * The argument types of each command live here too, so handlers and callers agree.
 */
import type { Uri } from 'vscode';
import type { JourneyObjectRef } from '../core/journey/types';
import type { JourneyTreeNode } from './headless/journey-tree-model';

export const CATEGORY = 'Kube Journey';
export const VIEW_CONTAINER_ID = 'kubeJourney';
export const JOURNEYS_VIEW_ID = 'kubeJourney.journeys';
export const CONTENT_SCHEME = 'kube-journey';

/** Context keys the extension sets (`setContext`). */
export const CONTEXT_KEYS = {
  hasJourneys: 'kubeJourney.hasJourneys',
  targetIsSimulator: 'kubeJourney.targetIsSimulator',
  /** The built-in simulator or a twin: Re-simulate applies. */
  targetIsSimulated: 'kubeJourney.targetIsSimulated',
  /** A twin of a context: Apply for real applies. */
  targetIsTwin: 'kubeJourney.targetIsTwin',
} as const;

export interface CommandContribution {
  title: string;
  /** Codicon as `$(name)`, for view toolbars and inline actions. */
  icon?: string;
  /** When clause that enables the command everywhere (palette, menus, keybindings). */
  enablement?: string;
  /** When clause for the Command Palette; `false` hides a command that needs a tree item. */
  palette?: string;
}

/** Where Apply and Trace was started, when not from a file: one document of the file (CodeLens). */
export interface ApplyDocumentArg {
  uri: string;
  documentIndex: number;
}

/** Opens a journey's timeline, optionally focused on one object. */
export interface TimelineArg {
  journeyId: string;
  object?: JourneyObjectRef;
}

/** The manifest the Apply for real CodeLens stands in. */
export interface ApplyForRealArg {
  uri: string;
}

/** The file the Re-simulate CodeLens stands in. */
export interface ResimulateArg {
  uri: string;
}

export const COMMANDS = {
  'kubeJourney.applyAndTrace': {
    title: 'Apply and Trace',
    icon: '$(play)',
    // No `enablement: isWorkspaceTrusted`: the workbench evaluates trust late, and until then the
    // context menus would show Apply and Trace greyed out. The command checks trust itself
    // (workspace-trust.ts).
    // By extension too: until the YAML language is registered the workbench calls the file plain text.
    palette: 'editorLangId == yaml || resourceExtname == .yaml || resourceExtname == .yml',
  },
  'kubeJourney.switchTarget': { title: 'Switch Target Cluster…', icon: '$(server-environment)' },
  'kubeJourney.resetSimulator': { title: 'Reset Simulator', icon: '$(debug-restart)' },
  'kubeJourney.openSimulatorTerminal': { title: 'Open Terminal for the Simulator', icon: '$(terminal)' },
  'kubeJourney.openTimeline': { title: 'Open Timeline', icon: '$(timeline-open)', palette: CONTEXT_KEYS.hasJourneys },
  'kubeJourney.showObjectYaml': { title: 'Show YAML at a Recorded Moment…', icon: '$(history)', palette: 'false' },
  'kubeJourney.showSchedulerVerdicts': { title: 'Show Scheduler Verdicts', icon: '$(list-filter)', palette: 'false' },
  'kubeJourney.saveJourney': { title: 'Save Journey…', icon: '$(save-as)', palette: CONTEXT_KEYS.hasJourneys },
  'kubeJourney.compareJourneyFiles': { title: 'Compare With…', icon: '$(diff)' },
  'kubeJourney.clearJourneys': { title: 'Clear Journeys', icon: '$(clear-all)', palette: CONTEXT_KEYS.hasJourneys },
  'kubeJourney.showLog': { title: 'Show Log' },
  // Fit suggestions (issue 14).
  'kubeJourney.resimulate': { title: 'Re-simulate: Apply and Trace on a Fresh Simulator', icon: '$(debug-restart)', palette: `${CONTEXT_KEYS.targetIsSimulated} && editorLangId == yaml` },
  'kubeJourney.applyForReal': { title: 'Apply for Real and Compare with the Twin', icon: '$(cloud-upload)', palette: `${CONTEXT_KEYS.targetIsTwin} && editorLangId == yaml` },
} as const satisfies Record<string, CommandContribution>;

export type CommandId = keyof typeof COMMANDS;

/** Arguments each command receives from its menus, CodeLenses and callers. */
export interface CommandArgs {
  /** Editor/explorer context menu: the file (and the explorer's multi-selection); CodeLens: one document. */
  'kubeJourney.applyAndTrace': [resource?: Uri | ApplyDocumentArg, selection?: Uri[]];
  'kubeJourney.switchTarget': [];
  'kubeJourney.resetSimulator': [];
  'kubeJourney.openSimulatorTerminal': [];
  /** Tree item, CodeLens (TimelineArg) or palette (nothing: pick a journey). */
  'kubeJourney.openTimeline': [target?: JourneyTreeNode | TimelineArg];
  'kubeJourney.showObjectYaml': [node?: JourneyTreeNode];
  'kubeJourney.showSchedulerVerdicts': [node?: JourneyTreeNode];
  /**
   * Tree item or CodeLens (TimelineArg); from the timeline's title or the palette: the active
   * timeline's journey, else one picked. `destination` (callers and tests) skips the save dialog.
   */
  'kubeJourney.saveJourney': [target?: JourneyTreeNode | TimelineArg, destination?: Uri];
  /** Explorer: the file and the multi-selection (two journey files: those); editor title: the journey file. */
  'kubeJourney.compareJourneyFiles': [resource?: Uri, selection?: Uri[]];
  'kubeJourney.clearJourneys': [];
  'kubeJourney.showLog': [];
  /** The Re-simulate CodeLens (its file), or the palette (the active editor's file). */
  'kubeJourney.resimulate': [arg?: ResimulateArg];
  /** The Apply for real CodeLens (its file), a Journeys tree item (its manifest), or the palette (the active editor's file). */
  'kubeJourney.applyForReal': [arg?: ApplyForRealArg | JourneyTreeNode];
}

export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];

type Missing = Exclude<CommandId, keyof CommandArgs> | Exclude<keyof CommandArgs, CommandId>;
/** Fails to compile when CommandArgs and COMMANDS name different commands. */
export const COMMAND_ARGS_COVER_EVERY_COMMAND: [Missing] extends [never] ? true : Missing = true;
