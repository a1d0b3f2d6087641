import React from 'react';
import type { SelectValue } from './Select';

export interface OptionProps {
    /** Value of the option. */
    value: SelectValue;
    /** Label. Falls back to `children`, then to `value`. */
    label?: React.ReactNode;
    disabled?: boolean;
    /** Extra text for the built-in filter. */
    searchText?: string;
    children?: React.ReactNode;
    [extra: string]: unknown;
}

export interface OptGroupProps {
    label: React.ReactNode;
    children?: React.ReactNode;
}

/**
 * Declarative option. `Select` reads the props; the element itself never
 * renders.
 */
function Option(_props: OptionProps): null {
    return null;
}

Option.displayName = 'Select.Option';

export function OptGroup(_props: OptGroupProps): null {
    return null;
}

OptGroup.displayName = 'Select.OptGroup';

export default Option;
