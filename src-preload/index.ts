import { contextBridge } from 'electron'; contextBridge.exposeInMainWorld('x', {});
