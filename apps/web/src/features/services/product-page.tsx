import { type Product, productResource } from '@admin/shared/resources/products';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';

/** Create or edit a product of the current client (docs/screens.md, Product). */
function ProductForm(props: ResourceFormProps<Product>) {
  const form = useResourceForm(productResource, props);
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <Field form={form} name="code" description="Maps the feed's product_code" />
      <Field form={form} name="category" />
      <Field form={form} name="description" />
    </ResourceFormShell>
  );
}

/** Products and services of the current client. */
export default function ProductPage() {
  return <ResourcePage resource={productResource} form={ProductForm} />;
}
