/**
 * In the desktop app the preload (electron/preload.cts) gives the page `window.cmsDesktop`; in a
 * browser it is undefined and the UI uses the web platform instead. The window grants pages no
 * permissions, so clipboard writes must go through it there.
 */
interface DesktopBridge {
  openDataFolder(): Promise<void>;
  openInBrowser(path?: string): Promise<void>;
  copyText(text: string): Promise<void>;
}

declare global {
  interface Window {
    cmsDesktop?: DesktopBridge;
  }
}

export const desktop: DesktopBridge | undefined = window.cmsDesktop;
