import React from 'react';

export type CheckboxGroupValue = string | number;

export interface CheckboxGroupContextValue {
    value: CheckboxGroupValue[];
    disabled?: boolean;
    toggle: (value: CheckboxGroupValue, checked: boolean) => void;
}

export const CheckboxGroupContext = React.createContext<CheckboxGroupContextValue | null>(null);
