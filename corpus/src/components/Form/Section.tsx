import React from 'react';
import { cls } from '../_utils/classNames';
import { prefixCls } from './Form';

export interface FormSectionProps {
    /** Heading of the section. */
    text: React.ReactNode;
    className?: string;
    children?: React.ReactNode;
}

/** Groups related fields under a heading. Purely visual: field paths are unchanged. */
export default function FormSection(props: FormSectionProps) {
    return (
        <section className={cls(`${prefixCls}-section`, props.className)}>
            <h3 className={`${prefixCls}-section-title`}>{props.text}</h3>
            {props.children}
        </section>
    );
}
