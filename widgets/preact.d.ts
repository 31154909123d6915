// The types of the vendored preact (widgets/preact.js) that the widgets use: what tsc checks them against.
export type VNode = { type: unknown; props: Record<string, unknown>; key?: unknown };
export type Child = VNode | string | number | boolean | null | undefined | Child[];
export function h(type: string | ((props: Record<string, unknown>) => Child), props?: Record<string, unknown> | null, ...children: Child[]): VNode;
export const createElement: typeof h;
export function cloneElement(vnode: VNode, props?: Record<string, unknown> | null, ...children: Child[]): VNode;
export function render(vnode: Child, parent: Element | DocumentFragment): void;
export const Fragment: (props: Record<string, unknown>) => Child;
export function createRef<T = unknown>(): { current: T | null };
