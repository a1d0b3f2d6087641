import React from 'react';

/**
 * State that follows `value` when it is defined (controlled) and keeps its
 * own copy otherwise (uncontrolled). `onChange` fires in both modes.
 */
export function useControllableState<T>(
    value: T | undefined,
    defaultValue: T | (() => T),
    onChange?: (next: T) => void,
): [T, (next: T) => void] {
    const [inner, setInner] = React.useState<T>(defaultValue);
    const controlled = value !== undefined;
    const current = controlled ? (value as T) : inner;

    const setValue = React.useCallback(
        (next: T) => {
            if (!controlled) {
                setInner(next);
            }
            if (!Object.is(next, current)) {
                onChange?.(next);
            }
        },
        [controlled, current, onChange],
    );

    return [current, setValue];
}
