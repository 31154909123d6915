// The types of the vendored preact hooks (widgets/preact-hooks.js) that the widgets use: what tsc checks them against.
export function useState<T>(initial: T | (() => T)): [T, (next: T | ((previous: T) => T)) => void];
export function useReducer<S, A>(reducer: (state: S, action: A) => S, initial: S): [S, (action: A) => void];
export function useRef<T>(initial: T): { current: T };
export function useEffect(effect: () => void | (() => void), inputs?: readonly unknown[]): void;
export function useLayoutEffect(effect: () => void | (() => void), inputs?: readonly unknown[]): void;
export function useMemo<T>(make: () => T, inputs: readonly unknown[]): T;
export function useCallback<T extends (...args: never[]) => unknown>(callback: T, inputs: readonly unknown[]): T;
export function useId(): string;
