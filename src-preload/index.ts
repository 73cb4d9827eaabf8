/**
 * The preload (sandboxed, CommonJS): exposes the contract as `window.blotter` and nothing else.
 * A sandboxed preload can require only 'electron'; everything else is bundled in.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildApi } from './api';

contextBridge.exposeInMainWorld('blotter', buildApi(ipcRenderer));
