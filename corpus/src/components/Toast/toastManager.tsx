import React from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { DEFAULT_Z_INDEX } from '../_utils/constants';
import { ToastList } from './Toast';
import type { ToastProps, ToastType } from './Toast';

export type ToastOptions = Omit<ToastProps, 'id' | 'type'> & { id?: string };

export interface ToastConfig {
    /** Distance from the top of the viewport, in pixels. @default 24 */
    top?: number;
    /** Default duration in seconds. @default 3 */
    duration?: number;
    /** @default 1010 */
    zIndex?: number;
    /** Close the oldest toast once more than this many are shown. @default 5 */
    maxCount?: number;
    /** Mount point. @default document.body */
    getContainer?: () => HTMLElement;
}

let config: Required<Omit<ToastConfig, 'getContainer'>> & Pick<ToastConfig, 'getContainer'> = {
    top: 24,
    duration: 3,
    zIndex: DEFAULT_Z_INDEX.toast,
    maxCount: 5,
};

let toasts: ToastProps[] = [];
let root: Root | null = null;
let seed = 0;

function render() {
    if (typeof document === 'undefined') {
        return;
    }
    if (!root) {
        const container = document.createElement('div');
        (config.getContainer?.() ?? document.body).appendChild(container);
        root = createRoot(container);
    }
    root.render(<ToastList toasts={toasts} top={config.top} zIndex={config.zIndex} onRemove={close} />);
}

function show(type: ToastType, input: React.ReactNode | ToastOptions): string {
    const options: ToastOptions = React.isValidElement(input) || typeof input !== 'object' || input === null ? { content: input as React.ReactNode } : (input as ToastOptions);
    seed += 1;
    const id = options.id ?? `toast-${seed}`;
    const next: ToastProps = { duration: config.duration, ...options, id, type };
    const existing = toasts.findIndex((toast) => toast.id === id);
    if (existing >= 0) {
        toasts = toasts.map((toast, index) => (index === existing ? next : toast));
    } else {
        toasts = [...toasts, next].slice(-config.maxCount);
    }
    render();
    return id;
}

/** Close one toast by id. */
export function close(id: string): void {
    toasts = toasts.filter((toast) => toast.id !== id);
    render();
}

const Toast = {
    info: (input: React.ReactNode | ToastOptions) => show('info', input),
    success: (input: React.ReactNode | ToastOptions) => show('success', input),
    warning: (input: React.ReactNode | ToastOptions) => show('warning', input),
    error: (input: React.ReactNode | ToastOptions) => show('error', input),
    close,
    /** Close every toast and unmount the container. */
    destroyAll(): void {
        toasts = [];
        root?.unmount();
        root = null;
    },
    /** Change global defaults. Affects toasts opened afterwards. */
    config(next: ToastConfig): void {
        config = { ...config, ...next };
    },
};

export default Toast;
