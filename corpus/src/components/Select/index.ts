import Select from './Select';

export default Select;
export { default as Option, OptGroup } from './Option';
export { isGroup, flattenOptions, optionsFromChildren } from './Select';
export type {
    SelectProps,
    SelectRef,
    SelectOption,
    SelectOptionGroup,
    OptionOrGroup,
    SelectValue,
    SelectSize,
    SelectStatus,
    RenderOptionProps,
} from './Select';
export type { OptionProps, OptGroupProps } from './Option';
