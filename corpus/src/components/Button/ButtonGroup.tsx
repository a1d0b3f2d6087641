import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import type { ButtonProps } from './Button';

const prefixCls = `${BASE_CLASS_PREFIX}-btn-group`;

export interface ButtonGroupProps extends Pick<ButtonProps, 'type' | 'theme' | 'size' | 'disabled'> {
    className?: string;
    style?: React.CSSProperties;
    /** Accessible name of the group. */
    'aria-label'?: string;
    children?: React.ReactNode;
}

/**
 * Joins buttons into one control and passes shared props down. Props set on
 * an individual button win over the group.
 */
export default function ButtonGroup(props: ButtonGroupProps) {
    const { type, theme, size, disabled, className, style, children } = props;
    const shared = { type, theme, size, disabled };

    return (
        <div role="group" aria-label={props['aria-label']} className={cls(prefixCls, className)} style={style}>
            {React.Children.map(children, (child) => {
                if (!React.isValidElement<ButtonProps>(child)) {
                    return child;
                }
                const defined = Object.fromEntries(Object.entries(shared).filter(([key, value]) => value !== undefined && child.props[key as keyof ButtonProps] === undefined));
                return React.cloneElement(child, defined);
            })}
        </div>
    );
}
