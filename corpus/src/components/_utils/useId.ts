import React from 'react';

let counter = 0;

/**
 * Stable id for aria attributes. Uses React's `useId` when available and
 * falls back to a module counter on React 17.
 */
export function useId(prefix: string, explicit?: string): string {
    const reactUseId = (React as unknown as { useId?: () => string }).useId;
    const generated = reactUseId ? reactUseId() : undefined;
    const fallback = React.useRef<string | null>(null);
    if (explicit) {
        return explicit;
    }
    if (generated) {
        return `${prefix}-${generated.replace(/:/g, '')}`;
    }
    if (fallback.current === null) {
        counter += 1;
        fallback.current = `${prefix}-${counter}`;
    }
    return fallback.current;
}
