import React from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let lockCount = 0;
let previousOverflow = '';

/** Prevent the page behind an open modal from scrolling. Nested modals share one lock. */
export function useScrollLock(active: boolean): void {
    React.useEffect(() => {
        if (!active) {
            return undefined;
        }
        if (lockCount === 0) {
            previousOverflow = document.body.style.overflow;
            document.body.style.overflow = 'hidden';
        }
        lockCount += 1;
        return () => {
            lockCount -= 1;
            if (lockCount === 0) {
                document.body.style.overflow = previousOverflow;
            }
        };
    }, [active]);
}

/**
 * Keep Tab / Shift+Tab inside the container while active and restore focus
 * to the previously focused element afterwards.
 */
export function useFocusTrap(container: React.RefObject<HTMLElement | null>, active: boolean): void {
    React.useEffect(() => {
        const node = container.current;
        if (!active || !node) {
            return undefined;
        }
        const previous = document.activeElement as HTMLElement | null;
        const first = node.querySelector<HTMLElement>(FOCUSABLE);
        (first ?? node).focus();

        const onKeyDown = (event: KeyboardEvent) => {
            if (event.key !== 'Tab') {
                return;
            }
            const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
            if (items.length === 0) {
                event.preventDefault();
                return;
            }
            const head = items[0];
            const tail = items[items.length - 1];
            if (event.shiftKey && document.activeElement === head) {
                event.preventDefault();
                tail.focus();
            } else if (!event.shiftKey && document.activeElement === tail) {
                event.preventDefault();
                head.focus();
            }
        };

        node.addEventListener('keydown', onKeyDown);
        return () => {
            node.removeEventListener('keydown', onKeyDown);
            previous?.focus?.();
        };
    }, [container, active]);
}
