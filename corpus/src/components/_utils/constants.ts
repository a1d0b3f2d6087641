/** Prefix of every class name rendered by my-design. */
export const BASE_CLASS_PREFIX = 'md';

export const DEFAULT_Z_INDEX = {
    popover: 1030,
    tooltip: 1060,
    modal: 1000,
    toast: 1010,
} as const;

export type Size = 'small' | 'default' | 'large';
