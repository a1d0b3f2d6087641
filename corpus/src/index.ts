/**
 * Public entry of my-design. Every component is exported by name; types
 * are exported alongside.
 */
export { default as Avatar } from './components/Avatar';
export type { AvatarProps, AvatarGroupProps } from './components/Avatar';

export { default as Badge } from './components/Badge';
export type { BadgeProps } from './components/Badge';

export { default as Button } from './components/Button';
export type { ButtonProps, ButtonGroupProps } from './components/Button';

export { default as Checkbox } from './components/Checkbox';
export type { CheckboxProps, CheckboxGroupProps } from './components/Checkbox';

export { default as DatePicker } from './components/DatePicker';
export type { DatePickerProps, DatePreset } from './components/DatePicker';

// Empty lives in @my-design/illustrations with its image assets.
export { Empty } from '@my-design/illustrations';
export type { EmptyProps } from '@my-design/illustrations';

export { default as Form, withField, useFormApi, useFormState } from './components/Form';
export type { FormProps, FormApi, FieldProps, Rule } from './components/Form';

export { default as Input } from './components/Input';
export type { InputProps, TextAreaProps } from './components/Input';

export { default as Modal } from './components/Modal';
export type { ModalProps, ConfirmOptions } from './components/Modal';

export { default as Pagination } from './components/Pagination';
export type { PaginationProps } from './components/Pagination';

export { default as Select } from './components/Select';
export type { SelectProps, SelectOption, SelectRef } from './components/Select';

export { default as Spin } from './components/Spin';
export type { SpinProps } from './components/Spin';

export { default as Table } from './components/Table';
export type { TableProps, ColumnProps, TableRef, RowSelection, TableChangeInfo } from './components/Table';

export { default as Tabs } from './components/Tabs';
export type { TabsProps, TabPaneProps } from './components/Tabs';

export { default as Tag } from './components/Tag';
export type { TagProps, TagGroupProps } from './components/Tag';

export { default as Toast } from './components/Toast';
export type { ToastOptions, ToastConfig } from './components/Toast';

export { default as Tooltip } from './components/Tooltip';
export type { TooltipProps } from './components/Tooltip';

export { ConfigContext as ConfigProviderContext } from './components/_utils/ConfigContext';
export type { ConfigContextValue } from './components/_utils/ConfigContext';
